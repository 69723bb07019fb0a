// Compaction on the file backend (server/store/file/collection.ts): it happens however units of work keep arriving
// (every upload is one), so the journal stays bounded; it folds only what the journals hold, never a unit's write
// before its commit; and the snapshot it writes is one JSON document that loads back to the same rows.

import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../server/log.js';
import { openFileStore } from '../../../server/store/file/store.js';
import { defineCollection } from '../../../server/store/types.js';

const items = defineCollection<{ id: string; title: string; pad?: string }>({
  name: 'items',
  scope: 'workspace',
  fields: {},
});

const COMPACT_AT = 20_000;
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-compaction-'));
  dirs.push(dir);
  return dir;
}

/** The journals of `items` on disk (the current one and any retired), and the snapshot's size. */
async function sizes(dir: string) {
  const db = join(dir, 'workspaces', 'ws_1', 'db');
  let journals = 0;
  for (const name of await readdir(db))
    if (name === 'items.log' || name.startsWith('.items.log.'))
      journals += await stat(join(db, name)).then(
        (s) => s.size,
        () => 0, // a retired journal removed since the listing
      );
  const snapshot = await stat(join(db, 'items.json')).then(
    (s) => s.size,
    () => 0,
  );
  return { journals, snapshot };
}

it('compacts while units of work keep arriving, one always open: the journal stays within twice its threshold', async () => {
  const dir = await dataDir();
  const store = await openFileStore({
    dataDir: dir,
    fsync: false,
    compactAtBytes: COMPACT_AT,
    log: silentLogger,
  });
  let worst = 0;
  let snapshots = 0;
  let lastSnapshot = 0;
  for (let round = 0; round < 60; round++) {
    // Twenty units queued at once: while one commits the next is waiting, so a unit is open throughout.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.unitOfWork('ws_1', async (tx) => {
          await tx.collection(items).insert({ id: `r${round}-${i}`, title: 'upload', pad: 'x'.repeat(100) });
        }),
      ),
    );
    // A steady stream, not a flood: uploads arrive over HTTP, each a unit (here up to 10,000 a second).
    await new Promise((r) => setTimeout(r, 2));
    const { journals, snapshot } = await sizes(dir);
    const threshold = Math.max(COMPACT_AT, snapshot / 4);
    worst = Math.max(worst, journals / threshold);
    if (snapshot !== lastSnapshot) snapshots++;
    lastSnapshot = snapshot;
  }
  await store.close();
  expect(snapshots).toBeGreaterThan(3);
  expect(worst).toBeLessThanOrEqual(2);
  const again = await openFileStore({ dataDir: dir, fsync: false });
  expect(await again.collection(items, 'ws_1').count()).toBe(1200);
  await again.close();
});

it('folds no write of a unit that has not committed, and keeps what the unit committed after the cut', async () => {
  const dir = await dataDir();
  const store = await openFileStore({
    dataDir: dir,
    fsync: false,
    compactAtBytes: COMPACT_AT,
    log: silentLogger,
  });
  const rows = store.collection(items, 'ws_1');
  await rows.insert({ id: 'held', title: 'before the unit' });
  let release = () => {};
  const wait = new Promise<void>((resolve) => (release = resolve));
  let wrote = () => {};
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const unit = store.unitOfWork('ws_1', async (tx) => {
    await tx.collection(items).update('held', { title: 'inside the unit' });
    await tx.collection(items).insert({ id: 'new-in-unit', title: 'inside the unit' });
    wrote();
    await wait;
  });
  await written;
  // Direct writes past the threshold: compactions run while the unit holds its rows.
  for (let i = 0; i < 400; i++) await rows.insert({ id: `d${i}`, title: 'direct', pad: 'y'.repeat(100) });
  await new Promise((r) => setTimeout(r, 100));
  const snapshot = JSON.parse(
    await readFile(join(dir, 'workspaces', 'ws_1', 'db', 'items.json'), 'utf8'),
  ) as {
    rows: Array<{ id: string; title: string }>;
  };
  expect(snapshot.rows.length).toBeGreaterThan(100);
  expect(snapshot.rows.find((r) => r.id === 'held')?.title).toBe('before the unit');
  expect(snapshot.rows.find((r) => r.id === 'new-in-unit')).toBeUndefined();
  release();
  await unit;
  await store.close();
  const again = await openFileStore({ dataDir: dir, fsync: false });
  expect(await again.collection(items, 'ws_1').get('held')).toMatchObject({ title: 'inside the unit' });
  expect(await again.collection(items, 'ws_1').get('new-in-unit')).toBeDefined();
  expect(await again.collection(items, 'ws_1').count()).toBe(402);
  await again.close();
});

it('loads a snapshot an older Folio wrote (one JSON line) and rewrites it a row to a line at the next compaction', async () => {
  const dir = await dataDir();
  const db = join(dir, 'workspaces', 'ws_1', 'db');
  const first = await openFileStore({ dataDir: dir, fsync: false, log: silentLogger });
  await first.collection(items, 'ws_1').insert({ id: 'a', title: 'one' });
  await first.close();
  const { writeFile } = await import('node:fs/promises');
  const old = { rows: [{ id: 'old', title: 'from before', seq: 7 }], tombstones: { gone: 3 } };
  await writeFile(join(db, 'items.json'), JSON.stringify(old));
  await writeFile(join(db, 'items.log'), '');
  const store = await openFileStore({ dataDir: dir, fsync: false, compactAtBytes: 2_000, log: silentLogger });
  const rows = store.collection(items, 'ws_1');
  expect(await rows.get('old')).toMatchObject({ title: 'from before' });
  expect(await rows.tombstone('gone')).toBe(3);
  for (let i = 0; i < 40; i++) await rows.insert({ id: `n${i}`, title: 'new', pad: 'z'.repeat(80) });
  await store.close();
  const text = await readFile(join(db, 'items.json'), 'utf8');
  expect(text.startsWith('{"rows":[\n')).toBe(true);
  expect(JSON.parse(text).tombstones).toEqual({ gone: 3 });
  const again = await openFileStore({ dataDir: dir, fsync: false });
  expect(await again.collection(items, 'ws_1').count()).toBe(41);
  await again.close();
});
