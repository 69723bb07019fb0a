// The bytes a workspace holds, by SHA-256: blobs staged by packs (waiting for the record that uses them) and the
// blobs of its assets. Lookups never look outside the workspace, so what another workspace holds stays unknown.
import type { Store } from '../../../store/types.js';
import { assetsCollection } from '../../assets/collections.js';
import { blobAsFile } from '../blob-file.js';
import { stagedBlobs } from '../collections.js';
import type { BlobFile, BlobSource } from '../kinds/types.js';
import type { BlobRef } from '../schema.js';

export const stagedKey = (workspaceId: string, sha256: string) =>
  `workspaces/${workspaceId}/sync-blobs/${sha256}`;

export function createWorkspaceBlobs({ store }: { store: Store }) {
  const staged = (workspaceId: string) => store.collection(stagedBlobs, workspaceId);
  const assets = (workspaceId: string) => store.collection(assetsCollection, workspaceId);

  /** Which of `shas` the workspace holds (two indexed queries, whatever the count). */
  async function held(workspaceId: string, shas: string[]): Promise<Set<string>> {
    if (shas.length === 0) return new Set();
    const unique = [...new Set(shas)];
    const found = new Set((await staged(workspaceId).all({ id: { in: unique } })).map((r) => r.id));
    const rest = unique.filter((s) => !found.has(s));
    if (rest.length)
      for (const asset of await assets(workspaceId).all({ sha256: { in: rest } })) found.add(asset.sha256);
    return found;
  }

  /** The blob key holding `sha256` in the workspace, if any. */
  async function keyOf(workspaceId: string, sha256: string): Promise<string | undefined> {
    if (await staged(workspaceId).get(sha256)) return stagedKey(workspaceId, sha256);
    const asset = await assets(workspaceId).findOne({ sha256 });
    return asset ? `workspaces/${workspaceId}/files/${asset.id}` : undefined;
  }

  /** Stages bytes that arrived: the blob first, then its record, so a record never names missing bytes. */
  async function stage(workspaceId: string, blob: BlobRef, write: (key: string) => Promise<void>) {
    await write(stagedKey(workspaceId, blob.sha256));
    const row = { id: blob.sha256, size: blob.size, createdAt: new Date().toISOString() };
    await staged(workspaceId)
      .insert(row)
      .catch((error) => {
        if ((error as Error).name !== 'StoreConflict') throw error;
      });
  }

  /** Local files for writing records: the workspace's own bytes, never taken from it (blob-file.ts). */
  function sourceFor(workspaceId: string): BlobSource {
    return {
      async file(blob): Promise<BlobFile | undefined> {
        const key = await keyOf(workspaceId, blob.sha256);
        return key ? blobAsFile(store, key) : undefined;
      },
    };
  }

  /** A staged blob a record now holds: its staging copy goes. */
  async function consumed(workspaceId: string, sha256: string): Promise<void> {
    if (!(await staged(workspaceId).get(sha256))) return;
    await staged(workspaceId).remove(sha256);
    await store.blobs.delete(stagedKey(workspaceId, sha256));
  }

  /** Staged blobs no record took within `maxAgeMs` (an abandoned sync). */
  async function sweep(maxAgeMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - maxAgeMs).toISOString();
    let swept = 0;
    for (const workspaceId of await store.workspacesWith(stagedBlobs))
      for (const row of await staged(workspaceId).all({ createdAt: { lt: cutoff } })) {
        await staged(workspaceId).remove(row.id);
        await store.blobs.delete(stagedKey(workspaceId, row.id));
        swept++;
      }
    return swept;
  }

  return { held, keyOf, stage, sourceFor, consumed, sweep };
}

export type WorkspaceBlobs = ReturnType<typeof createWorkspaceBlobs>;
