// Units that wait while one commits go together in the next (server/store/unit-batcher.ts), on the real file backend:
// each writer hears its own answer, a burst costs a few unit-journal lines instead of one each, and a writer that
// throws takes its whole batch with it, rows and blobs, and nothing else.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../server/log.js';
import { openFileStore } from '../../../server/store/file/store.js';
import { UNITS_JOURNAL } from '../../../server/store/file/unit-of-work.js';
import type { UnitOfWork } from '../../../server/store/types.js';
import { defineCollection } from '../../../server/store/types.js';
import { createUnitBatcher } from '../../../server/store/unit-batcher.js';

const items = defineCollection<{ id: string; title: string }>({
  name: 'items',
  scope: 'workspace',
  fields: {},
});

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openStore() {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-batcher-'));
  dirs.push(dataDir);
  return { dataDir, store: await openFileStore({ dataDir, fsync: false, log: silentLogger }) };
}

const unitLines = async (dataDir: string) =>
  (await readFile(join(dataDir, 'workspaces', 'ws_1', 'db', UNITS_JOURNAL), 'utf8'))
    .split('\n')
    .filter(Boolean);

const write = (id: string) => async (tx: UnitOfWork) => {
  await tx.blobs.put(`workspaces/ws_1/files/${id}`, Buffer.from(id));
  return (await tx.collection(items).insert({ id, title: `Item ${id}` })).id;
};

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

it('commits a burst in a few units, and each writer gets its own answer', async () => {
  const { dataDir, store } = await openStore();
  const batcher = createUnitBatcher(store);
  const ids = Array.from({ length: 20 }, (_, i) => `i${i}`);
  expect(await Promise.all(ids.map((id) => batcher.run('ws_1', write(id))))).toEqual(ids);
  const lines = await unitLines(dataDir);
  expect(lines.length).toBeLessThanOrEqual(2); // the first alone, the rest together while it committed
  await store.close();
  const again = await openFileStore({ dataDir, fsync: false });
  expect((await again.collection(items, 'ws_1').all()).map((r) => r.id).sort()).toEqual([...ids].sort());
  await again.close();
});

it('undoes the whole batch of a writer that throws, tells each of its writers, and leaves other batches alone', async () => {
  const { store } = await openStore();
  const batcher = createUnitBatcher(store);
  const first = gate();
  const alone = batcher.run('ws_1', async (tx) => {
    await first.opened;
    return write('a')(tx);
  });
  const together = [
    batcher.run('ws_1', write('b')),
    batcher.run('ws_1', async (tx) => {
      await write('c')(tx);
      throw new Error('disk on fire');
    }),
    batcher.run('ws_1', write('d')),
  ];
  first.open();
  expect(await alone).toBe('a');
  for (const result of await Promise.allSettled(together))
    expect(result).toMatchObject({ status: 'rejected', reason: { message: 'disk on fire' } });
  const collection = store.collection(items, 'ws_1');
  expect((await collection.all()).map((r) => r.id)).toEqual(['a']);
  for (const id of ['b', 'c', 'd'])
    expect(await store.blobs.stat(`workspaces/ws_1/files/${id}`)).toBeUndefined();
  expect(await store.blobs.stat('workspaces/ws_1/files/a')).toMatchObject({ size: 1 });
  expect(await batcher.run('ws_1', write('e'))).toBe('e'); // the next batch commits as ever
  await store.close();
});

it('keeps workspaces apart: a batch holds one workspace', async () => {
  const { store } = await openStore();
  const batcher = createUnitBatcher(store);
  const other = (id: string) => async (tx: UnitOfWork) =>
    (await tx.collection(items).insert({ id, title: id })).id;
  await Promise.all([
    batcher.run('ws_1', other('x')),
    batcher.run('ws_2', other('y')),
    batcher.run('ws_2', other('z')),
  ]);
  expect((await store.collection(items, 'ws_1').all()).map((r) => r.id)).toEqual(['x']);
  expect((await store.collection(items, 'ws_2').all()).map((r) => r.id).sort()).toEqual(['y', 'z']);
  await store.close();
});
