// What the file backend adds to units of work (server/store/file/unit-of-work.ts): the unit journal's line is the
// commit, so a unit whose copies into the collections' journals fail is still whole after a restart, and one
// whose line fails is not there at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../../server/log.js';
import type { FaultInjector } from '../../../server/store/file/faults.js';
import { openFileStore } from '../../../server/store/file/store.js';
import { UNITS_JOURNAL } from '../../../server/store/file/unit-of-work.js';
import { defineCollection } from '../../../server/store/types.js';

const items = defineCollection<{ id: string; title: string }>({
  name: 'items',
  scope: 'workspace',
  fields: {},
});
const versions = defineCollection<{ id: string; itemId: string }>({
  name: 'versions',
  scope: 'workspace',
  fields: {},
});

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function storeFailing(fails: (path: string) => boolean) {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-units-'));
  dirs.push(dataDir);
  const state = { failing: true };
  const faults: FaultInjector = (step) =>
    state.failing && step.op === 'journal-append' && fails(step.path) ? { code: 'EIO' } : undefined;
  return { dataDir, state, store: await openFileStore({ dataDir, fsync: false, faults, log: silentLogger }) };
}

const publish = (store: Awaited<ReturnType<typeof openFileStore>>) =>
  store.unitOfWork('ws_1', async (tx) => {
    await tx.collection(versions).insert({ id: 'i1@1', itemId: 'i1' });
    await tx.collection(items).insert({ id: 'i1', title: 'First' });
  });

it('keeps a unit whose copies into the collection journals failed: its line commits it, a restart replays it', async () => {
  const { dataDir, state, store } = await storeFailing((path) => !path.endsWith(UNITS_JOURNAL));
  await publish(store);
  expect(await store.collection(items, 'ws_1').get('i1')).toMatchObject({ title: 'First' });
  state.failing = false;
  await store.close();
  const again = await openFileStore({ dataDir, fsync: false });
  expect(await again.collection(versions, 'ws_1').get('i1@1')).toMatchObject({ itemId: 'i1', seq: 1 });
  expect(await again.collection(items, 'ws_1').get('i1')).toMatchObject({ title: 'First', seq: 2 });
  expect((await again.collection(items, 'ws_1').insert({ id: 'i2', title: 'Next' })).seq).toBe(3);
  await again.close();
});

it('leaves nothing of a unit whose line could not be written, now or after a restart', async () => {
  const { dataDir, store } = await storeFailing((path) => path.endsWith(UNITS_JOURNAL));
  await expect(publish(store)).rejects.toMatchObject({ name: 'StorageFailure' });
  expect(await store.collection(versions, 'ws_1').get('i1@1')).toBeUndefined();
  expect((await store.changes('ws_1', { since: 0, limit: 10 })).changes).toEqual([]);
  await store.close();
  const again = await openFileStore({ dataDir, fsync: false });
  expect(await again.collection(items, 'ws_1').all()).toEqual([]);
  expect(await again.collection(versions, 'ws_1').all()).toEqual([]);
  await again.close();
});
