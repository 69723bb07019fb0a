// The file backend's own feed behaviour: it applies a write to memory before its journal line is on disk, so the
// feed must never answer a change that is still in flight (it may yet be undone), and rows written before the feed
// existed get their seqs, once, at start-up.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageFailure } from '../../../server/store/errors.js';
import type { Fault } from '../../../server/store/file/faults.js';
import { openFileStore } from '../../../server/store/file/store.js';
import { defineCollection, type Store } from '../../../server/store/types.js';

const notes = defineCollection<{ id: string; title: string; createdAt: string }>({
  name: 'feed-notes',
  scope: 'workspace',
  fields: { title: 'text', createdAt: 'text' },
});
const note = (i: number) => ({ id: `n${i}`, title: `Note ${i}`, createdAt: `2026-01-0${i}T00:00:00.000Z` });

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function open(dataDir?: string, fail?: () => Fault | undefined) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'folio-feed-')));
  if (!dataDir) dirs.push(dir);
  const store = await openFileStore({
    dataDir: dir,
    fsync: false,
    faults: (step) => (step.op === 'journal-append' ? fail?.() : undefined),
  });
  stores.push(store);
  return { store, dir };
}

describe('file backend change feed', () => {
  it('never answers a write still in flight, so a write that then fails was never seen', async () => {
    let failNext = false;
    const { store } = await open(undefined, () => (failNext ? { code: 'EIO' } : undefined));
    const c = store.collection(notes, 'ws_a');
    await c.insert(note(1));
    failNext = true;
    const failing = c.insert(note(2)).catch((error) => error);
    const during = await store.changes('ws_a', { since: 0, limit: 10 });
    expect(during.changes.map((ch) => ch.id)).toEqual(['n1']);
    expect(await failing).toBeInstanceOf(StorageFailure);
    failNext = false;
    const after = await store.changes('ws_a', { since: during.next, limit: 10 });
    expect(after.changes).toEqual([]);
    expect(await c.get('n2')).toBeUndefined();
    const three = await c.insert(note(3));
    expect((await store.changes('ws_a', { since: during.next, limit: 10 })).changes).toEqual([
      { collection: notes.name, id: 'n3', seq: three.seq, row: three },
    ]);
  });

  it('gives rows written before the feed existed their seqs at start-up, oldest first, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-feed-'));
    dirs.push(dir);
    const db = join(dir, 'workspaces', 'ws_old', 'db');
    await mkdir(db, { recursive: true });
    await writeFile(join(db, 'feed-notes.json'), JSON.stringify({ rows: [note(3), note(1)] }));
    await writeFile(
      join(db, 'feed-notes.log'),
      `${JSON.stringify({ op: 'put', row: note(2) })}\n${JSON.stringify({ op: 'del', id: 'n3' })}\n`,
    );
    const first = await open(dir);
    const page = await first.store.changes('ws_old', { since: 0, limit: 10 });
    expect(page.changes.map((ch) => [ch.id, ch.seq])).toEqual([
      ['n1', 1],
      ['n2', 2],
    ]);
    await first.store.close();
    stores.length = 0;
    const again = await open(dir);
    expect((await again.store.changes('ws_old', { since: 0, limit: 10 })).changes).toEqual(page.changes);
    expect((await again.store.collection(notes, 'ws_old').insert(note(4))).seq).toBe(3);
  });
});
