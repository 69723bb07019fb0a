import type { Store } from '../../../store/types.js';
import type { Assemblies } from './assembly.js';
import { chunkedUploads } from './collections.js';
import type { KeyedLock } from './keyed-lock.js';
import type { PartStore } from './part-store.js';
import type { ChunkedUploadRecord } from './schema.js';
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
 * them and recording the upload (or a dropped workspace) can still leave them. At start-up on a single node
 * (`startup`: nothing else can be under way) it also removes the temp files of PUTs a crash cut off and opens again
 * the uploads a crash left completing, so the client's next complete goes ahead instead of waiting out the lease.
 */
export function createSweep({ store, records, parts, assemblies, locked, now }: SweepDeps) {
  const { uploads, isExpired } = records;

  return async function sweep({ startup = false, graceMs = 3600_000 } = {}) {
    let expired = 0;
    let reopened = 0;
    const withUploads = await store.workspacesWith(chunkedUploads);
    for (const workspaceId of withUploads) {
      for (const upload of await uploads(workspaceId).all({ status: { in: ['open', 'completing'] } })) {
        if (startup && upload.status === 'open') await parts.removeStaleTemps(workspaceId, upload.id);
        if (startup && upload.status === 'completing' && !isExpired(upload)) {
          await reopen(workspaceId, upload);
          reopened++;
          continue;
        }
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
    return { expired, reopened, orphans: await sweepOrphanParts(withUploads, startup ? 0 : graceMs) };
  };

  /** A complete cut off by the end of the process that ran it: open again, its parts kept. */
  async function reopen(workspaceId: string, upload: ChunkedUploadRecord): Promise<void> {
    await parts.removeStaleTemps(workspaceId, upload.id);
    await uploads(workspaceId).update(
      upload.id,
      { status: 'open', claimUntil: null },
      { if: { status: 'completing', rev: upload.rev ?? null } },
    );
  }

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
