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
import { mkdir, readdir, rename, rm, rmdir, stat, truncate } from 'node:fs/promises';
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
import {
  assemblyPath,
  commitPart,
  partSizesOnDisk,
  reassemble,
  receivePart,
  removeStaleTemps,
  type Tee,
} from './part-files.js';
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
  /** Where parts wait on this node's disk until complete. */
  partsRoot: string;
  now?: () => number;
}

export function createChunkedUploads({
  store,
  assets,
  transcripts,
  maxBytes,
  partsRoot,
  now = Date.now,
}: ChunkedDeps) {
  const uploads = (workspaceId: string) => store.collection(chunkedUploads, workspaceId);
  const dirOf = (workspaceId: string, id: string) => join(partsRoot, workspaceId, id);
  const locks = new Map<string, Promise<unknown>>();
  /** In-order assembly state by upload id: parts 0..next-1 are in assembly.tmp (`size` bytes) and in `hash`. */
  const assemblies = new Map<
    string,
    { next: number; size: number; hash: Hash; busy: boolean; broken: boolean }
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
    await mkdir(dirOf(workspaceId, record.id), { recursive: true });
    const inserted = await uploads(workspaceId)
      .insert(record)
      .catch(async (error) => {
        await rm(dirOf(workspaceId, record.id), { recursive: true, force: true });
        throw error;
      });
    assemblies.set(record.id, { next: 0, size: 0, hash: createHash('sha256'), busy: false, broken: false });
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
    const dir = dirOf(workspaceId, id);
    // the next part in order, and no other PUT is teeing: this one also goes to the assembly (one at a time)
    const asm = assemblies.get(id);
    let tee: Tee | undefined;
    if (asm && !asm.broken && !asm.busy && index === asm.next) {
      asm.busy = true;
      tee = { path: assemblyPath(dir), start: asm.size, hash: asm.hash.copy() };
    }
    try {
      const part = await receivePart(req, dir, index, expected, tee);
      if (digest && digest !== part.sha256) {
        await rm(part.tmpPath, { force: true });
        throw badRequest(
          `Part ${index} does not match its SHA-256 (got ${part.sha256}, expected ${digest}); send it again`,
        );
      }
      return await locked(id, async () => {
        const current = await uploads(workspaceId).get(id);
        if (current?.status !== 'open') {
          await rm(part.tmpPath, { force: true });
          await findOpen(workspaceId, id); // throws the right status
          throw conflict('This upload is already completed');
        }
        const previous = current.parts[index];
        await commitPart(part.tmpPath, dir, index);
        const state = assemblies.get(id);
        if (state && tee && state === asm && part.teed && !state.broken && state.next === index) {
          state.hash = tee.hash; // the part is whole, verified and in place: its bytes join the running hash
          state.size += part.size;
          state.next++;
        } else if (state && index < state.next && previous?.sha256 !== part.sha256) state.broken = true;
        const record = { size: part.size, sha256: part.sha256, receivedAt: new Date(now()).toISOString() };
        // Under the lock: no other commit or complete of this upload runs between the read above and this write.
        await uploads(workspaceId).update(
          id,
          { parts: { ...current.parts, [index]: record } },
          { if: { status: 'open' } },
        );
        return { index, size: part.size, sha256: part.sha256 };
      });
    } finally {
      if (tee && asm) asm.busy = false;
    }
  }

  async function status(workspaceId: string, id: string) {
    const upload = await findOpen(workspaceId, id);
    const receivedParts = Object.entries(upload.parts)
      .map(([index, p]) => ({ index: Number(index), size: p.size, sha256: p.sha256 }))
      .sort((a, b) => a.index - b.index);
    const missingParts = range(upload.partCount).filter((i) => !upload.parts[i]);
    return { ...present(upload), status: upload.status, receivedParts, missingParts, ...upload.result };
  }

  /** Reassembles, verifies, creates the asset and a pending transcript; a second call returns the same ids. */
  function complete(workspaceId: string, id: string): Promise<{ transcriptId: string; assetId: string }> {
    return locked(id, async () => {
      const upload = await findOpen(workspaceId, id);
      if (upload.purpose) throw conflict(`This upload is a ${upload.purpose}; it is completed elsewhere`);
      if (upload.status === 'completed' && upload.result) return upload.result;
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
      await uploads(workspaceId).update(id, { status: 'completed', result });
      await rm(dirOf(workspaceId, id), { recursive: true, force: true });
      return result;
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
      const upload = await findOpen(workspaceId, id);
      if (upload.purpose !== purpose) throw notFound('Upload');
      if (upload.status === 'completed') return upload.outcome as R;
      const whole = await joinVerified(workspaceId, upload);
      const outcome = await consume(whole, upload);
      await uploads(workspaceId).update(id, { status: 'completed', outcome });
      await rm(dirOf(workspaceId, id), { recursive: true, force: true });
      return outcome;
    });
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
    const dir = dirOf(workspaceId, id);
    const sizes = await partSizesOnDisk(dir, upload.partCount);
    const missing = range(upload.partCount).filter((i) => !sizes.has(i));
    const wrong = range(upload.partCount).filter(
      (i) => sizes.has(i) && sizes.get(i) !== expectedSize(upload, i),
    );
    if (missing.length || wrong.length)
      throw badRequest(partsProblem(missing, wrong), { missingParts: missing, wrongSizeParts: wrong });
    const target = join(store.tmpDir, `chunked-${id}-${Date.now()}`);
    const whole = await joinWhole(id, dir, upload.partCount, target);
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

  /** The whole file at `target`: from the assembly when it is usable (fast path), else from every part. */
  async function joinWhole(id: string, dir: string, partCount: number, target: string) {
    const asm = assemblies.get(id);
    assemblies.delete(id); // its hash is finished below, or it is of no use: a later complete joins all parts
    if (!asm || asm.broken || asm.busy || asm.next === 0) {
      stats.full++;
      return reassemble(dir, partCount, target);
    }
    const path = assemblyPath(dir);
    let whole: { size: number; sha256: string };
    if (asm.next === partCount) {
      stats.fast++;
      whole = { size: asm.size, sha256: asm.hash.digest('hex') };
    } else {
      stats.resumed++;
      whole = await reassemble(dir, partCount, path, { from: asm.next, size: asm.size, hash: asm.hash });
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
      await uploads(workspaceId).update(id, { status: 'aborted', parts: {} }, { if: { status: 'open' } });
      await rm(dirOf(workspaceId, id), { recursive: true, force: true });
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
    for (const workspaceId of await store.workspacesWith(chunkedUploads)) {
      for (const upload of await uploads(workspaceId).all({ status: 'open' })) {
        if (startup) await removeStaleTemps(dirOf(workspaceId, upload.id));
        if (!isExpired(upload)) continue;
        await locked(upload.id, async () => {
          assemblies.delete(upload.id);
          await uploads(workspaceId).update(
            upload.id,
            { status: 'expired', parts: {} },
            { if: { status: 'open' } },
          );
          await rm(dirOf(workspaceId, upload.id), { recursive: true, force: true });
        });
        expired++;
      }
    }
    return { expired, orphans: await sweepOrphanDirs(startup ? 0 : graceMs) };
  }

  async function sweepOrphanDirs(graceMs: number): Promise<number> {
    let orphans = 0;
    for (const workspaceId of await readdir(partsRoot).catch(() => [] as string[])) {
      for (const id of await readdir(join(partsRoot, workspaceId)).catch(() => [] as string[])) {
        const dir = dirOf(workspaceId, id);
        const upload = await uploads(workspaceId)
          .get(id)
          .catch(() => undefined);
        if (upload?.status === 'open') continue;
        const age =
          Date.now() -
          (await stat(dir).then(
            (s) => s.mtimeMs,
            () => 0,
          ));
        if (age < graceMs) continue;
        await rm(dir, { recursive: true, force: true });
        orphans++;
      }
      await rmdir(join(partsRoot, workspaceId)).catch(() => undefined); // only if now empty
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
    dropWorkspace: (workspaceId: string) =>
      rm(join(partsRoot, workspaceId), { recursive: true, force: true }),
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
