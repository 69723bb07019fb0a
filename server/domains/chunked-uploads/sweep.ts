import type { Store } from '../../store/types.js';
import type { Assemblies } from './assembly.js';
import { chunkedUploads } from './collections.js';
import type { KeyedLock } from './keyed-lock.js';
import type { PartStore } from './part-store.js';
import type { UploadRecords } from './upload-records.js';

export type SweepDeps = {
  store: Store;
  records: UploadRecords;
  parts: PartStore;
  assemblies: Assemblies;
  locked: KeyedLock;
  now: () => number;
};

/**
 * Expires open uploads past their time and removes their parts; removes part directories no upload record owns,
 * once older than `graceMs`: parts are files or blobs outside the records' transaction, so a crash between making
 * them and recording the upload (or a dropped workspace) can still leave them. At start-up it also removes the
 * temp files of PUTs a crash cut off.
 */
export function createSweep({ store, records, parts, assemblies, locked, now }: SweepDeps) {
  const { uploads, isExpired } = records;

  return async function sweep({ startup = false, graceMs = 3600_000 } = {}) {
    let expired = 0;
    const withUploads = await store.workspacesWith(chunkedUploads);
    for (const workspaceId of withUploads) {
      for (const upload of await uploads(workspaceId).all({ status: { in: ['open', 'completing'] } })) {
        if (startup && upload.status === 'open') await parts.removeStaleTemps(workspaceId, upload.id);
        const abandoned =
          upload.status === 'completing' && (upload.claimUntil ?? '') < new Date(now()).toISOString();
        if (!isExpired(upload) || (upload.status === 'completing' && !abandoned)) continue;
        await locked(upload.id, async () => {
          assemblies.drop(upload.id);
          const gone = await uploads(workspaceId).update(
            upload.id,
            { status: 'expired', parts: {} },
            { if: { status: upload.status, rev: upload.rev ?? null } },
          );
          if (gone) {
            await parts.remove(workspaceId, upload.id);
            expired++;
          }
        });
      }
    }
    return { expired, orphans: await sweepOrphanParts(withUploads, startup ? 0 : graceMs) };
  };

  async function sweepOrphanParts(withUploads: string[], graceMs: number): Promise<number> {
    let orphans = 0;
    for await (const { workspaceId, id, modifiedAt } of parts.stored(withUploads)) {
      const upload = await uploads(workspaceId)
        .get(id)
        .catch(() => undefined);
      if (upload?.status === 'open' || upload?.status === 'completing') continue;
      if (Date.now() - modifiedAt < graceMs) continue;
      await parts.remove(workspaceId, id);
      orphans++;
    }
    return orphans;
  }
}
