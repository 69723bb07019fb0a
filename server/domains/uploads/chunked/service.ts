/**
 * Chunked upload of long audio: begin → PUT parts (any order, in parallel, re-sendable) → complete (completion.ts),
 * which reassembles and verifies, then creates the audio asset and a pending transcript. Records live per workspace
 * (so another workspace's uploadId is simply not found); parts wait in the part store (part-store.ts), and while
 * they arrive in order they are also hashed as they come (assembly.ts).
 */
import type { IncomingMessage } from 'node:http';
import { badRequest, conflict, payloadTooLarge } from '../../../http/errors.js';
import { newId } from '../../../store/ids.js';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import { storedOptions } from '../../transcripts/schema.js';
import type { TranscriptService } from '../../transcripts/service.js';
import type { UploadService } from '../service.js';
import { createAssemblies } from './assembly.js';
import { createCompletion } from './completion.js';
import { createKeyedLock } from './keyed-lock.js';
import { checkContentType, declaredDigest, expectedSize, parseIndex, range } from './part-checks.js';
import { partStoreFor, type ReceivedPart } from './part-store.js';
import {
  type BeginChunkedBody,
  type ChunkedUploadRecord,
  DEFAULT_EXPIRES_IN,
  DEFAULT_PART_SIZE,
  MAX_PARTS,
} from './schema.js';
import { createSweep } from './sweep.js';
import { createUploadRecords } from './upload-records.js';

export { resultIdsOf } from './completion.js';

export interface ChunkedDeps {
  store: Store;
  assets: AssetService;
  assetFromFile: UploadService['createFromFile'];
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
  assetFromFile,
  transcripts,
  maxBytes,
  partsRoot,
  now = Date.now,
  completeLeaseMs = 10 * 60_000,
}: ChunkedDeps) {
  const records = createUploadRecords(store, now);
  const { uploads, find, findOpen, refuseClosed } = records;
  const parts = partStoreFor(store, partsRoot);
  /** Serialises commits and completes of one upload in this process; other nodes are kept out by conditional writes. */
  const locked = createKeyedLock();
  const assemblies = createAssemblies(parts);
  const shared = { store, records, parts, assemblies, locked, now };
  const { complete, completeWith } = createCompletion({
    ...shared,
    assets,
    assetFromFile,
    transcripts,
    completeLeaseMs,
  });

  async function begin(
    workspaceId: string,
    body: BeginChunkedBody,
    other?: { purpose: string; manifest: unknown },
  ): Promise<ChunkedUploadRecord> {
    const record = newRecord(body, other);
    await parts.prepare(workspaceId, record.id);
    const inserted = await uploads(workspaceId)
      .insert(record)
      .catch(async (error) => {
        await parts.remove(workspaceId, record.id);
        throw error;
      });
    assemblies.start(workspaceId, record);
    return inserted;
  }

  function newRecord(
    body: BeginChunkedBody,
    other?: { purpose: string; manifest: unknown },
  ): ChunkedUploadRecord {
    if (body.size > maxBytes) throw payloadTooLarge(`size is larger than the ${maxBytes}-byte upload limit`);
    const partSize = body.partSize ?? DEFAULT_PART_SIZE;
    const partCount = Math.ceil(body.size / partSize);
    if (partCount > MAX_PARTS)
      throw badRequest(`${partCount} parts is more than ${MAX_PARTS}: use a larger partSize`);
    const createdAt = now();
    return {
      id: newId('upl'),
      filename: body.filename,
      contentType: body.contentType,
      size: body.size,
      ...(body.sha256 ? { sha256: body.sha256 } : {}),
      partSize,
      partCount,
      ...(body.language ? { language: body.language } : {}),
      ...(body.prompt ? { prompt: body.prompt } : {}),
      ...(Object.keys(storedOptions(body)).length ? { options: storedOptions(body) } : {}),
      status: 'open',
      parts: {},
      ...other,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + (body.expiresIn ?? DEFAULT_EXPIRES_IN) * 1000).toISOString(),
    };
  }

  async function putPart(workspaceId: string, id: string, rawIndex: string, req: IncomingMessage) {
    const upload = await findOpen(workspaceId, id);
    // refused before a byte is written: on disk a part is written in place, into the file a complete hashes
    if (upload.status !== 'open') return refuseClosed(workspaceId, id, upload);
    const index = parseIndex(upload, rawIndex);
    const expected = expectedSize(upload, index);
    checkPartHeaders(req, index, expected);
    const digest = declaredDigest(req.headers);
    const teed = assemblies.teeFor(id, index);
    let part: ReceivedPart | undefined;
    try {
      part = await parts.receive(workspaceId, upload, index, req, expected, teed?.hash);
      if (digest && digest !== part.sha256)
        throw badRequest(
          `Part ${index} does not match its SHA-256 (got ${part.sha256}, expected ${digest}); send it again`,
        );
      const received = part;
      return await locked(id, async () => {
        const current = await uploads(workspaceId).get(id);
        if (current?.status !== 'open') return refuseClosed(workspaceId, id, current);
        const previous = current.parts[index];
        await received.commit();
        assemblies.committed(id, index, received, previous?.sha256, teed);
        const receivedAt = new Date(now()).toISOString();
        await recordPart(workspaceId, id, index, {
          size: received.size,
          sha256: received.sha256,
          receivedAt,
        });
        return { index, size: received.size, sha256: received.sha256 };
      });
    } catch (error) {
      await part?.discard(); // nothing after a commit
      throw error;
    } finally {
      teed?.done();
    }
  }

  function checkPartHeaders(req: IncomingMessage, index: number, expected: number): void {
    checkContentType(req.headers['content-type']);
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > expected)
      throw payloadTooLarge(`Part ${index} must be exactly ${expected} bytes; Content-Length is ${declared}`);
    if (declared !== undefined && Number(declared) < expected)
      throw badRequest(`Part ${index} must be exactly ${expected} bytes; Content-Length is ${declared}`);
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
      if (current?.status !== 'open') return refuseClosed(workspaceId, id, current);
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

  async function abort(workspaceId: string, id: string): Promise<void> {
    const upload = await find(workspaceId, id);
    if (upload.status === 'completed')
      throw conflict('This upload is already completed; delete its transcript instead');
    await locked(id, async () => {
      assemblies.drop(id);
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

  return {
    begin,
    putPart,
    status,
    complete,
    completeWith,
    abort,
    sweep: createSweep(shared),
    present,
    find,
    stats: assemblies.stats,
    dropWorkspace: (workspaceId: string) => parts.removeWorkspace(workspaceId),
  };
}

export type ChunkedUploads = ReturnType<typeof createChunkedUploads>;

export function present(upload: ChunkedUploadRecord) {
  const { id, partSize, partCount, size, expiresAt } = upload;
  return { uploadId: id, partSize, partCount, size, expiresAt };
}
