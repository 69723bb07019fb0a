import type { Store } from '../../store/types.js';
import { assetsCollection } from './collections.js';

/**
 * Removes bytes that have no record. A blob store takes no part in the records' transaction, so an upload killed
 * between putting its bytes and committing its record (create-asset.ts) can still leave them. Files younger than
 * `graceMs` may belong to an upload still under way and are left alone.
 */
export async function sweepOrphanFiles(store: Store, graceMs: number): Promise<number> {
  let swept = 0;
  const cutoff = Date.now() - graceMs;
  for (const workspaceId of await store.workspacesWith(assetsCollection)) {
    const assets = store.collection(assetsCollection, workspaceId);
    for await (const blob of store.blobs.list(`workspaces/${workspaceId}/files`)) {
      if (blob.modifiedAt.getTime() > cutoff) continue;
      const id = blob.key.slice(blob.key.lastIndexOf('/') + 1);
      if (await assets.get(id)) continue;
      await store.blobs.delete(blob.key);
      swept++;
    }
  }
  return swept;
}
