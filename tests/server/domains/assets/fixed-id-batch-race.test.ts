// A create with a fixed id (a synced record sent again while the request of a killed client is still being served)
// that another writer commits between the create's check and its unit: the record that won keeps its bytes, even
// when a neighbour fails the batched unit the create was part of (create-asset.ts, store/unit-of-work.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { assetBlobKey, assetsCollection } from '../../../../server/domains/assets/collections.js';
import { createAssetWriter } from '../../../../server/domains/assets/create-asset.js';
import { silentLogger } from '../../../../server/log.js';
import { openFileStore } from '../../../../server/store/file/store.js';
import type { Store } from '../../../../server/store/types.js';

const WS = 'ws_1';
let dataDir: string | undefined;
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function bytesAt(store: Store, key: string): Promise<string | undefined> {
  const stream = await store.blobs.get(key);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

it('keeps the bytes of a fixed id another writer committed meanwhile when a neighbour fails the batch', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-create-race-'));
  const store = await openFileStore({
    dataDir,
    fsync: false,
    log: silentLogger,
    faults: ({ op, path }) =>
      op === 'blob-move' && path.endsWith('/ast_fails') ? { code: 'EIO' } : undefined,
  });
  const same = 'the same asset, sent twice\n';
  const other = createAssetWriter(store);
  let releaseFirst = () => {};
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  let units = 0;
  let raced: Promise<unknown> | undefined;
  const checked = new Set<string>();
  const racing: Store = {
    ...store,
    // The create's check finds no `ast_same`; the other writer commits it right after.
    collection(spec, workspaceId) {
      const rows = store.collection(spec, workspaceId);
      if (spec !== assetsCollection) return rows;
      return {
        ...rows,
        async get(id) {
          const row = await rows.get(id);
          if (id === 'ast_same' && !raced) {
            raced = other.create(WS, { bytes: Buffer.from(same), filename: 'same.txt' }, { id });
            await raced;
          }
          checked.add(id);
          return row;
        },
      } as typeof rows;
    },
    // The first batch waits, so the two creates below go together in the next.
    async unitOfWork(workspaceId, work) {
      if (units++ === 0) await firstHeld;
      return store.unitOfWork(workspaceId, work);
    },
  };
  const writer = createAssetWriter(racing);
  const together = { together: true };
  const first = writer.create(WS, { bytes: Buffer.from('first\n'), filename: 'first.txt' }, {}, together);
  await until(() => units === 1);
  const retried = writer.create(
    WS,
    { bytes: Buffer.from(same), filename: 'same.txt' },
    { id: 'ast_same' },
    together,
  );
  const failing = writer.create(
    WS,
    { bytes: Buffer.from('fails\n'), filename: 'fails.txt' },
    { id: 'ast_fails' },
    together,
  );
  await until(() => checked.size === 2);
  await new Promise((resolve) => setImmediate(resolve)); // from its check, a create joins the batcher at once
  releaseFirst();
  await first;
  await expect(failing).rejects.toThrow(/EIO/);
  await expect(retried).rejects.toThrow(/EIO/); // the batch failed with its neighbour
  expect(units).toBe(2);

  const won = await store.collection(assetsCollection, WS).get('ast_same');
  expect(won?.size).toBe(same.length);
  expect(await bytesAt(store, assetBlobKey(WS, 'ast_same'))).toBe(same);
  expect(await store.collection(assetsCollection, WS).get('ast_fails')).toBeUndefined();
  expect(await bytesAt(store, assetBlobKey(WS, 'ast_fails'))).toBeUndefined();
  await store.close();
});
