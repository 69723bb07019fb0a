/**
 * Chunked upload of long audio: begin → PUT parts (any order, in parallel, re-sendable) → complete, which
 * reassembles and verifies, then creates the audio asset and a pending transcript. Records live per workspace (so
 * another workspace's uploadId is simply not found); parts under <dataDir>/chunked/<workspaceId>/<uploadId>/.
 * Complete is idempotent across a crash: the asset and transcript ids derive from the upload id, so a retry finds
 * what an interrupted complete already made instead of making it twice.
 *
 * Fast path: while parts arrive in order, each one is also teed (same stream pass) into <dir>/assembly.tmp and a
 * copy of a running whole-file SHA-256 kept in memory; the copy becomes the running hash only when the part is
 * verified and committed. Complete then checks the part sizes on disk, finishes the hash and renames the assembly
 * into place, or, if the assembly covers only parts 0..k-1, reads and appends just parts k.. . A re-PUT of an
 * already appended index with different bytes, or a restart (the hash lives in memory), drops the assembly and
 * complete joins all parts from disk as before: correctness never depends on the fast path.
 */
import { createHash, type Hash } from 'node:crypto';
import { rename, rm, truncate } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import {
  badRequest,
  conflict,
  gone,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
} from '../../http/errors.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/types.js';
import type { AssetService } from '../assets/service.js';
import type { TranscriptService } from '../transcripts/service.js';
import { chunkedUploads } from './collections.js';
import type { Tee } from './part-files.js';
import { partStoreFor } from './part-store.js';
import {
  type BeginChunkedBody,
  type ChunkedUploadRecord,
  DEFAULT_EXPIRES_IN,
  DEFAULT_PART_SIZE,
  MAX_PARTS,
} from './schema.js';

export interface ChunkedDeps {
  store: Store;
  assets: AssetService;
  transcripts: TranscriptService;
  maxBytes: number;
  /** Where parts wait until complete when blobs are files (part-store.ts); else they wait in the blob store. */
  partsRoot: string;
  now?: () => number;
  /** How long a complete holds the upload before another may take it over (a node that died mid-complete). */
  completeLeaseMs?: number;
}

export function createChunkedUploads({
  store,
  assets,
  transcripts,
  maxBytes,
  partsRoot,
  now = Date.now,
  completeLeaseMs = 10 * 60_000,
}: ChunkedDeps) {
  const uploads = (workspaceId: string) => store.collection(chunkedUploads, workspaceId);
  const parts = partStoreFor(store, partsRoot);
  /** Serialises commits and completes of one upload in this process; other nodes are kept out by conditional writes. */
  const locks = new Map<string, Promise<unknown>>();
  /**
   * In-order assembly state by upload id: parts 0..next-1 are in assembly.tmp (`size` bytes, their SHA-256s in
   * `shas`) and in `hash`. Only this process's PUTs tee into it; complete checks `shas` against the record.
   */
  const assemblies = new Map<
    string,
    { next: number; size: number; hash: Hash; shas: string[]; busy: boolean; broken: boolean }
  >();
  /** How completes joined the file: `fast` (assembly only), `resumed` (assembly + later parts), `full` (all parts). */
  const stats = { fast: 0, resumed: 0, full: 0 };

  /** Runs `fn` after every earlier locked call for the same upload: commits and completes are serial. */
  function locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = locks.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    const tail = next.catch(() => undefined);
    locks.set(id, tail);
    void tail.then(() => locks.get(id) === tail && locks.delete(id));
    return next;
  }

  async function begin(
    workspaceId: string,
    body: BeginChunkedBody,
    other?: { purpose: string; manifest: unknown },
  ): Promise<ChunkedUploadRecord> {
    if (body.size > maxBytes) throw payloadTooLarge(`size is larger than the ${maxBytes}-byte upload limit`);
    const partSize = body.partSize ?? DEFAULT_PART_SIZE;
    const partCount = Math.ceil(body.size / partSize);
    if (partCount > MAX_PARTS)
      throw badRequest(`${partCount} parts is more than ${MAX_PARTS}: use a larger partSize`);
    const createdAt = now();
    const record: ChunkedUploadRecord = {
      id: newId('upl'),
      filename: body.filename,
      contentType: body.contentType,
      size: body.size,
      ...(body.sha256 ? { sha256: body.sha256 } : {}),
      partSize,
      partCount,
      ...(body.language ? { language: body.language } : {}),
      ...(body.prompt ? { prompt: body.prompt } : {}),
      status: 'open',
      parts: {},
      ...other,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + (body.expiresIn ?? DEFAULT_EXPIRES_IN) * 1000).toISOString(),
    };
    await parts.prepare(workspaceId, record.id);
    const inserted = await uploads(workspaceId)
      .insert(record)
      .catch(async (error) => {
        await parts.remove(workspaceId, record.id);
        throw error;
      });
    if (parts.assemblyOf)
      assemblies.set(record.id, {
        next: 0,
        size: 0,
        hash: createHash('sha256'),
        shas: [],
        busy: false,
        broken: false,
      });
    return inserted;
  }

  /** The upload, refusing ones that can no longer take parts (410) or are finished (409). */
  async function findOpen(workspaceId: string, id: string): Promise<ChunkedUploadRecord> {
    const upload = await find(workspaceId, id);
    if (upload.status === 'aborted') throw gone('This upload was aborted');
    if (upload.status === 'expired' || (upload.status === 'open' && isExpired(upload)))
      throw gone('This upload has expired; begin a new one');
    return upload;
  }

  async function find(workspaceId: string, id: string): Promise<ChunkedUploadRecord> {
    const upload = await uploads(workspaceId).get(id);
    if (!upload) throw notFound('Upload');
    return upload;
  }

  const isExpired = (upload: ChunkedUploadRecord) => Date.parse(upload.expiresAt) <= now();

  function expectedSize(upload: ChunkedUploadRecord, index: number): number {
    return Math.min(upload.size, (index + 1) * upload.partSize) - index * upload.partSize;
  }

  function parseIndex(upload: ChunkedUploadRecord, raw: string): number {
    if (!/^\d{1,9}$/.test(raw))
      throw badRequest(`Part index must be a whole number from 0 to ${upload.partCount - 1}; got "${raw}"`);
    const index = Number(raw);
    if (index >= upload.partCount)
      throw badRequest(
        `Part index ${index} is out of range: this upload has parts 0 to ${upload.partCount - 1}`,
      );
    return index;
  }

  async function putPart(workspaceId: string, id: string, rawIndex: string, req: IncomingMessage) {
    const upload = await findOpen(workspaceId, id);
    if (upload.status === 'completed') throw conflict('This upload is already completed');
    const index = parseIndex(upload, rawIndex);
    const expected = expectedSize(upload, index);
    checkContentType(req.headers['content-type']);
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > expected)
      throw payloadTooLarge(`Part ${index} must be exactly ${expected} bytes; Content-Length is ${declared}`);
    if (declared !== undefined && Number(declared) < expected)
      throw badRequest(`Part ${index} must be exactly ${expected} bytes; Content-Length is ${declared}`);
    const digest = declaredDigest(req.headers);
    // the next part in order, and no other PUT is teeing: this one also goes to the assembly (one at a time)
    const asm = assemblies.get(id);
    let tee: Tee | undefined;
    if (asm && parts.assemblyOf && !asm.broken && !asm.busy && index === asm.next) {
      asm.busy = true;
      tee = { path: parts.assemblyOf(workspaceId, id), start: asm.size, hash: asm.hash.copy() };
    }
    try {
      const part = await parts.receive(workspaceId, id, index, req, expected, tee);
      if (digest && digest !== part.sha256) {
        await part.discard();
        throw badRequest(
          `Part ${index} does not match its SHA-256 (got ${part.sha256}, expected ${digest}); send it again`,
        );
      }
      return await locked(id, async () => {
        const current = await uploads(workspaceId).get(id);
        if (current?.status !== 'open') {
          await part.discard();
          await findOpen(workspaceId, id); // throws the right status
          throw conflict(
            current?.status === 'completing'
              ? 'This upload is being completed'
              : 'This upload is already completed',
          );
        }
        const previous = current.parts[index];
        await part.commit();
        const state = assemblies.get(id);
        if (state && tee && state === asm && part.teed && !state.broken && state.next === index) {
          state.hash = tee.hash; // the part is whole, verified and in place: its bytes join the running hash
          state.size += part.size;
          state.shas[index] = part.sha256;
          state.next++;
        } else if (state && index < state.next && previous?.sha256 !== part.sha256) state.broken = true;
        await recordPart(workspaceId, id, index, {
          size: part.size,
          sha256: part.sha256,
          receivedAt: new Date(now()).toISOString(),
        });
        return { index, size: part.size, sha256: part.sha256 };
      });
    } finally {
      if (tee && asm) asm.busy = false;
    }
  }

  /**
   * Adds a part to the record. Under the lock no other commit of this process interleaves; a commit through
   * another node may, so the write is conditional on the revision read and retried on a lost race.
   */
  async function recordPart(
    workspaceId: string,
    id: string,
    index: number,
    part: ChunkedUploadRecord['parts'][string],
  ) {
    for (;;) {
      const current = await uploads(workspaceId).get(id);
      if (current?.status !== 'open') {
        await findOpen(workspaceId, id);
        throw conflict(
          current?.status === 'completing'
            ? 'This upload is being completed'
            : 'This upload is already completed',
        );
      }
      const written = await uploads(workspaceId).update(
        id,
        { parts: { ...current.parts, [index]: part }, rev: (current.rev ?? 0) + 1 },
        { if: { status: 'open', rev: current.rev ?? null } },
      );
      if (written) return;
    }
  }

  async function status(workspaceId: string, id: string) {
    const upload = await findOpen(workspaceId, id);
    const receivedParts = Object.entries(upload.parts)
      .map(([index, p]) => ({ index: Number(index), size: p.size, sha256: p.sha256 }))
      .sort((a, b) => a.index - b.index);
    const missingParts = range(upload.partCount).filter((i) => !upload.parts[i]);
    // `completing` is a complete under way (on some node): to the client the upload is still open
    const shown = upload.status === 'completing' ? 'open' : upload.status;
    return { ...present(upload), status: shown, receivedParts, missingParts, ...upload.result };
  }

  /** Reassembles, verifies, creates the asset and a pending transcript; a second call returns the same ids. */
  function complete(workspaceId: string, id: string): Promise<{ transcriptId: string; assetId: string }> {
    return locked(id, async () => {
      const found = await findOpen(workspaceId, id);
      if (found.purpose) throw conflict(`This upload is a ${found.purpose}; it is completed elsewhere`);
      if (found.status === 'completed' && found.result) return found.result;
      const upload = await claimCompletion(workspaceId, found);
      if (upload.status === 'completed' && upload.result) return upload.result;
      try {
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
          }));
        const result = { transcriptId: transcript.id, assetId: ids.assetId };
        await uploads(workspaceId).update(id, { status: 'completed', result, claimUntil: null });
        await parts.remove(workspaceId, id);
        return result;
      } catch (error) {
        await reopen(workspaceId, upload);
        throw error;
      }
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
      try {
        const outcome = await consume(await joinVerified(workspaceId, upload), upload);
        await uploads(workspaceId).update(id, { status: 'completed', outcome, claimUntil: null });
        await parts.remove(workspaceId, id);
        return outcome;
      } catch (error) {
        await reopen(workspaceId, upload);
        throw error;
      }
    });
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

  /**
   * Takes the upload for one complete (open → completing, with a deadline), so two completes through two nodes
   * never build its asset at once. A complete whose node died is taken over once its deadline has passed.
   */
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
    const now_ = await find(workspaceId, upload.id);
    if (now_.status === 'completed') return now_;
    if (now_.status === 'open') return claimCompletion(workspaceId, now_); // a part was recorded meanwhile
    if (now_.status === 'completing') throw conflict('This upload is being completed; ask again in a moment');
    return findOpen(workspaceId, upload.id); // aborted or expired: throws 410
  }

  /** Verifies the parts, joins them and makes the asset, with the id that this upload's complete always uses. */
  async function createAsset(workspaceId: string, upload: ChunkedUploadRecord): Promise<void> {
    const whole = await joinVerified(workspaceId, upload);
    await assets.createFromFile(workspaceId, {
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
    const whole = await joinWhole(workspaceId, upload, target);
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

  /**
   * The whole file at `target`: from the assembly when it is usable (fast path), else from every part. The
   * assembly is usable only if each part in it is the one the record holds: a re-send through another node
   * replaces a part without this process seeing it.
   */
  async function joinWhole(workspaceId: string, upload: ChunkedUploadRecord, target: string) {
    const { id, partCount } = upload;
    const asm = assemblies.get(id);
    assemblies.delete(id); // its hash is finished below, or it is of no use: a later complete joins all parts
    const matches = asm && range(asm.next).every((i) => asm.shas[i] === upload.parts[i]?.sha256);
    if (!asm || !parts.assemblyOf || !matches || asm.broken || asm.busy || asm.next === 0) {
      stats.full++;
      return parts.join(workspaceId, id, partCount, target);
    }
    const path = parts.assemblyOf(workspaceId, id);
    let whole: { size: number; sha256: string };
    if (asm.next === partCount) {
      stats.fast++;
      whole = { size: asm.size, sha256: asm.hash.digest('hex') };
    } else {
      stats.resumed++;
      whole = await parts.join(workspaceId, id, partCount, path, {
        from: asm.next,
        size: asm.size,
        hash: asm.hash,
      });
    }
    await truncate(path, whole.size); // nothing past the parts (a failed tee never writes past its own part)
    await rename(path, target);
    return whole;
  }

  async function abort(workspaceId: string, id: string): Promise<void> {
    const upload = await find(workspaceId, id);
    if (upload.status === 'completed')
      throw conflict('This upload is already completed; delete its transcript instead');
    await locked(id, async () => {
      assemblies.delete(id);
      const aborted = await uploads(workspaceId).update(
        id,
        { status: 'aborted', parts: {} },
        { if: { status: 'open' } },
      );
      if (aborted) await parts.remove(workspaceId, id);
      else if ((await find(workspaceId, id)).status === 'completing')
        throw conflict('This upload is being completed');
    });
  }

  /**
   * Expires open uploads past their time and removes their parts; removes part directories no upload record owns
   * (a crash between making one and recording it, or a dropped workspace), once older than `graceMs`; at start-up
   * also the temp files of PUTs a crash cut off.
   */
  async function sweep({
    startup = false,
    graceMs = 3600_000,
  } = {}): Promise<{ expired: number; orphans: number }> {
    let expired = 0;
    const withUploads = await store.workspacesWith(chunkedUploads);
    for (const workspaceId of withUploads) {
      for (const upload of await uploads(workspaceId).all({ status: { in: ['open', 'completing'] } })) {
        if (startup && upload.status === 'open') await parts.removeStaleTemps(workspaceId, upload.id);
        const abandoned =
          upload.status === 'completing' && (upload.claimUntil ?? '') < new Date(now()).toISOString();
        if (!isExpired(upload) || (upload.status === 'completing' && !abandoned)) continue;
        await locked(upload.id, async () => {
          assemblies.delete(upload.id);
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

  return {
    begin,
    putPart,
    status,
    complete,
    completeWith,
    abort,
    sweep,
    present,
    find,
    stats,
    dropWorkspace: (workspaceId: string) => parts.removeWorkspace(workspaceId),
  };
}

export type ChunkedUploads = ReturnType<typeof createChunkedUploads>;

/** The asset and transcript a complete makes: fixed by the upload id, so a retried complete never makes two. */
export function resultIdsOf(uploadId: string) {
  const suffix = uploadId.replace(/^upl_/, '');
  return { assetId: `ast_${suffix}`, transcriptId: `trn_${suffix}` };
}

export function present(upload: ChunkedUploadRecord) {
  const { id, partSize, partCount, size, expiresAt } = upload;
  return { uploadId: id, partSize, partCount, size, expiresAt };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function partsProblem(missing: number[], wrong: number[]): string {
  const list = (xs: number[]) =>
    xs.length > 20 ? `${xs.slice(0, 20).join(', ')} and ${xs.length - 20} more` : xs.join(', ');
  const problems = [
    ...(missing.length ? [`missing parts: ${list(missing)}`] : []),
    ...(wrong.length ? [`wrong-sized parts: ${list(wrong)}`] : []),
  ];
  return `Cannot complete the upload: ${problems.join('; ')}`;
}

function checkContentType(type: string | undefined): void {
  const mime = (type ?? '').split(';')[0].trim().toLowerCase();
  if (mime && mime !== 'application/octet-stream' && mime !== 'application/offset+octet-stream')
    throw unsupportedMediaType('Send a part as raw bytes with Content-Type: application/octet-stream');
}

/** `X-Part-SHA256: <hex>` or `Content-Digest: sha-256=:<base64>:` (RFC 9530). */
function declaredDigest(headers: IncomingMessage['headers']): string | undefined {
  const hex = headers['x-part-sha256'];
  if (typeof hex === 'string' && hex.trim()) {
    if (!/^[0-9a-fA-F]{64}$/.test(hex.trim())) throw badRequest('X-Part-SHA256 must be 64 hex characters');
    return hex.trim().toLowerCase();
  }
  const digest = headers['content-digest'];
  if (typeof digest !== 'string') return undefined;
  const match = /sha-256=:([A-Za-z0-9+/=]+):/i.exec(digest);
  if (!match) return undefined;
  const bytes = Buffer.from(match[1], 'base64');
  if (bytes.length !== 32) throw badRequest('Content-Digest sha-256 must be 32 bytes in base64');
  return bytes.toString('hex');
}
