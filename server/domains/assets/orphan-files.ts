import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store } from '../../store/types.js';
import { assetsCollection } from './collections.js';

/**
 * Removes bytes that have no record. A blob store takes no part in the records' transaction, so an upload killed
 * between putting its bytes and committing its record (create-asset.ts) can still leave them. Files younger than
 * `graceMs` may belong to an upload still under way and are left alone. It runs while the server serves: the keys
 * are listed (no `stat` each) and compared with the records a batch at a time, yielding between batches; only a
 * key without a record is looked at further, inside a unit of work of its workspace, so that no upload's unit
 * (which puts its bytes, then writes its record) runs between the check and the removal. A file without a record
 * is never served meanwhile: every read of an asset's bytes starts from its record.
 */
export async function sweepOrphanFiles(store: Store, graceMs: number): Promise<number> {
  let swept = 0;
  const cutoff = Date.now() - graceMs;
  for (const workspaceId of await store.workspacesWith(assetsCollection)) {
    const assets = store.collection(assetsCollection, workspaceId);
    for await (const keys of store.blobs.keys(`workspaces/${workspaceId}/files`)) {
      const idOf = (key: string) => key.slice(key.lastIndexOf('/') + 1);
      const owned = await Promise.all(keys.map((key) => assets.get(idOf(key))));
      const unowned = keys.filter((_, i) => !owned[i]);
      if (unowned.length)
        swept += await store.unitOfWork(workspaceId, async () => {
          let removed = 0;
          for (const key of unowned) {
            if (await assets.get(idOf(key))) continue;
            const info = await store.blobs.stat(key);
            if (!info || info.modifiedAt.getTime() > cutoff) continue;
            await store.blobs.delete(key);
            removed++;
          }
          return removed;
        });
      await nextTurn();
    }
  }
  return swept;
}
