/**
 * Completing a chunked upload: join (on disk: link the file the parts were written into), verify, then make the
 * audio asset and a pending transcript (or hand the file to a purpose's `consume`). A complete takes the upload
 * first (open → completing, with a deadline), so two completes through two nodes never build its asset at once.
 * The asset's bytes and record are one unit of work (assets/create-asset.ts); the transcript is the transcripts
 * service's own write, so a complete killed between them is finished by the next one: the asset and transcript
 * ids derive from the upload id, and a retry finds what an interrupted complete already made instead of making it
 * twice.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest, conflict, notFound } from '../../../http/errors.js';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { TranscriptService } from '../../transcripts/service.js';
import type { UploadService } from '../service.js';
import type { Assemblies } from './assembly.js';
import type { KeyedLock } from './keyed-lock.js';
import { expectedSize, partsProblem, range } from './part-checks.js';
import type { PartStore } from './part-store.js';
import type { ChunkedUploadRecord } from './schema.js';
import type { UploadRecords } from './upload-records.js';

export type CompletionDeps = {
  store: Store;
  assets: AssetService;
  assetFromFile: UploadService['createFromFile'];
  transcripts: TranscriptService;
  records: UploadRecords;
  parts: PartStore;
  assemblies: Assemblies;
  locked: KeyedLock;
  now: () => number;
  /** How long a complete holds the upload before another may take it over (a node that died mid-complete). */
  completeLeaseMs: number;
};

/** The asset and transcript a complete makes: fixed by the upload id, so a retried complete never makes two. */
export function resultIdsOf(uploadId: string) {
  const suffix = uploadId.replace(/^upl_/, '');
  return { assetId: `ast_${suffix}`, transcriptId: `trn_${suffix}` };
}

export function createCompletion(deps: CompletionDeps) {
  const {
    store,
    assets,
    assetFromFile,
    transcripts,
    records,
    parts,
    assemblies,
    locked,
    now,
    completeLeaseMs,
  } = deps;
  const { uploads, find, findOpen } = records;

  /** Reassembles, verifies, creates the asset and a pending transcript; a second call returns the same ids. */
  function complete(workspaceId: string, id: string): Promise<{ transcriptId: string; assetId: string }> {
    return locked(id, async () => {
      const found = await findOpen(workspaceId, id);
      if (found.purpose) throw conflict(`This upload is a ${found.purpose}; it is completed elsewhere`);
      if (found.status === 'completed' && found.result) return found.result;
      const upload = await claimCompletion(workspaceId, found);
      if (upload.status === 'completed' && upload.result) return upload.result;
      return finish(workspaceId, upload, async () => {
        const result = await makeResult(workspaceId, upload);
        return { fields: { result }, answer: result };
      });
    });
  }

  /**
   * Completes an upload begun with a `purpose` (sync packs): joins and verifies the parts like complete, then hands
   * the whole file to `consume`, which owns it; what that answers is kept, so a second call answers the same.
   */
  function completeWith<R extends Record<string, unknown>>(
    workspaceId: string,
    id: string,
    purpose: string,
    consume: (
      file: { path: string; size: number; sha256: string },
      upload: ChunkedUploadRecord,
    ) => Promise<R>,
  ): Promise<R> {
    return locked(id, async () => {
      const found = await findOpen(workspaceId, id);
      if (found.purpose !== purpose) throw notFound('Upload');
      if (found.status === 'completed') return found.outcome as R;
      const upload = await claimCompletion(workspaceId, found);
      if (upload.status === 'completed') return upload.outcome as R;
      return finish(workspaceId, upload, async () => {
        const outcome = await consume(await joinVerified(workspaceId, upload), upload);
        return { fields: { outcome }, answer: outcome };
      });
    });
  }

  /** Runs a claimed complete's `work`, then marks the upload completed and removes its parts; reopens on failure. */
  async function finish<R>(
    workspaceId: string,
    upload: ChunkedUploadRecord,
    work: () => Promise<{ fields: Partial<ChunkedUploadRecord>; answer: R }>,
  ): Promise<R> {
    try {
      const { fields, answer } = await work();
      await uploads(workspaceId).update(upload.id, { status: 'completed', ...fields, claimUntil: null });
      await parts.remove(workspaceId, upload.id);
      return answer;
    } catch (error) {
      await parts.detach(workspaceId, upload.id); // parts sent after this must not change a file handed on
      await reopen(workspaceId, upload);
      throw error;
    }
  }

  /** The asset (unless a killed complete made it) and then the transcript (likewise). */
  async function makeResult(workspaceId: string, upload: ChunkedUploadRecord) {
    const ids = resultIdsOf(upload.id);
    if (!(await assets.get(workspaceId, ids.assetId).catch(() => undefined)))
      await createAsset(workspaceId, upload);
    const transcript =
      (await transcripts.find(workspaceId, ids.transcriptId).catch(() => undefined)) ??
      (await transcripts.create(workspaceId, {
        id: ids.transcriptId,
        audioAssetId: ids.assetId,
        source: 'chunked',
        language: upload.language,
        prompt: upload.prompt,
        options: upload.options,
      }));
    return { transcriptId: transcript.id, assetId: ids.assetId };
  }

  /** Open again after a failed complete, so the client can re-send what was wrong and complete again. */
  async function reopen(workspaceId: string, upload: ChunkedUploadRecord): Promise<void> {
    await uploads(workspaceId)
      .update(
        upload.id,
        { status: 'open', claimUntil: null },
        { if: { status: 'completing', claimUntil: upload.claimUntil ?? null } },
      )
      .catch(() => undefined);
  }

  /** Takes the upload for one complete; a complete whose node died is taken over once its deadline has passed. */
  async function claimCompletion(
    workspaceId: string,
    upload: ChunkedUploadRecord,
  ): Promise<ChunkedUploadRecord> {
    const claimUntil = new Date(now() + completeLeaseMs).toISOString();
    const stale = upload.status === 'completing' && (upload.claimUntil ?? '') < new Date(now()).toISOString();
    const claimed = await uploads(workspaceId).update(
      upload.id,
      { status: 'completing', claimUntil, rev: (upload.rev ?? 0) + 1 },
      {
        if: stale
          ? { status: 'completing', claimUntil: upload.claimUntil ?? null }
          : { status: 'open', rev: upload.rev ?? null },
      },
    );
    if (claimed) return claimed;
    const current = await find(workspaceId, upload.id);
    if (current.status === 'completed') return current;
    if (current.status === 'open') return claimCompletion(workspaceId, current); // a part was recorded meanwhile
    if (current.status === 'completing')
      throw conflict('This upload is being completed; ask again in a moment');
    return findOpen(workspaceId, upload.id); // aborted or expired: throws 410
  }

  /** Verifies the parts, joins them and makes the asset, with the id that this upload's complete always uses. */
  async function createAsset(workspaceId: string, upload: ChunkedUploadRecord): Promise<void> {
    const whole = await joinVerified(workspaceId, upload);
    await assetFromFile(workspaceId, {
      id: resultIdsOf(upload.id).assetId,
      path: whole.path,
      filename: upload.filename,
      contentType: upload.contentType,
      sha256: whole.sha256,
    });
  }

  /** Checks every part is there at its size, joins them into a temp file and checks the whole size and hash. */
  async function joinVerified(workspaceId: string, upload: ChunkedUploadRecord) {
    const { id } = upload;
    const sizes = await parts.sizes(workspaceId, id, upload.partCount);
    const missing = range(upload.partCount).filter((i) => !sizes.has(i));
    const wrong = range(upload.partCount).filter(
      (i) => sizes.has(i) && sizes.get(i) !== expectedSize(upload, i),
    );
    if (missing.length || wrong.length)
      throw badRequest(partsProblem(missing, wrong), { missingParts: missing, wrongSizeParts: wrong });
    const target = join(store.tmpDir, `chunked-${id}-${Date.now()}`);
    const whole = await assemblies.joinWhole(workspaceId, upload, target);
    if (whole.size !== upload.size || (upload.sha256 && whole.sha256 !== upload.sha256)) {
      await rm(target, { force: true });
      throw badRequest(
        whole.size !== upload.size
          ? `Reassembled file has ${whole.size} bytes; ${upload.size} were declared`
          : `Reassembled file does not match the declared sha256 (got ${whole.sha256}); re-send the wrong parts and complete again`,
      );
    }
    return { path: target, ...whole };
  }

  return { complete, completeWith };
}
