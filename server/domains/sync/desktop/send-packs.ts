// Sends the blobs the server lacks, in packs (one chunked upload each). A pack is recorded before its first part
// goes, so a run that dies mid-way resumes it at the parts the server is missing; the server answers which blobs
// it stored, and a blob it has is never sent again (the plan asks first).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { readFileRange } from '../../../store/file/read-file-range.js';
import type { Store } from '../../../store/types.js';
import type { PackRecord, PackSource } from '../collections.js';
import { syncPacks } from '../collections.js';
import type { Kinds } from '../kinds/index.js';
import { sha256Hex } from '../protocol/content-hash.js';
import { type Remote, RemoteError } from './hosted-client.js';
import type { Progress } from './progress.js';
import type { WirePlace } from './wire.js';

/** Small blobs share a pack up to this size; a larger blob is a pack of its own. */
export const PACK_BYTES = 64 << 20;
const PACK_BLOBS = 1000;
/**
 * Parts of 32 MiB, not the server's 8 MiB default: a quarter of the requests, each a record write and an fsync on
 * the server (a 500 MB file went about 1.5× faster), and a cut-off run resends at most 32 MiB of a part.
 */
const PART_BYTES = 32 << 20;
/** Pieces this small are read whole, READ_AHEAD of them at a time; larger ones stream. */
const SMALL_PIECE = 1 << 20;
const READ_AHEAD = 16;

export type PendingBlob = PackRecord['blobs'][number];

export function createUploader(deps: {
  store: Store;
  workspaceId: string;
  kinds: Kinds;
  remote: Remote;
  progress: Progress;
}) {
  const { store, workspaceId, kinds, remote, progress } = deps;
  const packs = store.collection(syncPacks, workspaceId);

  /**
   * Uploads `blobs`; resolves to the hashes the server could not store, with why. With a `place` on the wire, the
   * first pack is begun before the place is ready, its parts wait for it, and the place is released once the last
   * pack's parts are sent, before that pack's complete.
   */
  async function upload(blobs: PendingBlob[], place?: WirePlace): Promise<Map<string, string>> {
    const failed = new Map<string, string>();
    const unique = [...new Map(blobs.filter((b) => b.size > 0).map((b) => [b.sha256, b])).values()];
    progress.add(
      'upload',
      unique.length,
      unique.reduce((n, b) => n + b.size, 0),
    );
    const list = [...groups(unique)];
    for (const [i, group] of list.entries()) {
      const begun = await remote.beginPack({
        blobs: group.map(({ sha256, size }) => ({ sha256, size })),
        partSize: PART_BYTES,
      });
      const row: PackRecord = {
        id: begun.uploadId,
        remote: remote.baseUrl,
        blobs: group,
        size: begun.size,
        createdAt: new Date().toISOString(),
      };
      await packs.insert(row);
      if (i === 0) await place?.ready;
      await sendParts(row, begun.partSize, range(begun.partCount));
      if (i === list.length - 1) place?.release();
      await complete(row, failed);
    }
    if (list.length === 0 && place) {
      await place.ready;
      place.release();
    }
    return failed;
  }

  /** Packs an earlier run began and did not finish: their missing parts, then complete. */
  async function resume(): Promise<void> {
    for (const row of await packs.all()) {
      if (row.remote !== remote.baseUrl) {
        await packs.remove(row.id);
        continue;
      }
      const status = await remote.packStatus(row.id).catch((error) => {
        if (error instanceof RemoteError && [404, 409, 410].includes(error.status)) return undefined;
        throw error;
      });
      progress.add('upload', row.blobs.length, row.size);
      if (!status) {
        await packs.remove(row.id); // expired or gone: its blobs are planned again as missing
        continue;
      }
      const missing = status.status === 'completed' ? [] : status.missingParts;
      const missingBytes = missing.reduce(
        (n, i) => n + Math.min(row.size, (i + 1) * status.partSize) - i * status.partSize,
        0,
      );
      progress.step('upload', 0, row.size - missingBytes);
      await sendParts(row, status.partSize, missing);
      await complete(row, new Map());
    }
  }

  async function sendParts(row: PackRecord, partSize: number, parts: number[]) {
    for (const index of parts) {
      const start = index * partSize;
      const end = Math.min(row.size, start + partSize);
      await remote.putPart(row.id, index, Readable.from(bytesOf(row.blobs, start, end)), end - start);
      progress.step('upload', 0, end - start);
      progress.count('partsSent');
      progress.count('bytesSent', end - start);
    }
  }

  async function complete(row: PackRecord, failed: Map<string, string>) {
    const done = await remote.completePack(row.id);
    for (const f of done.failed) failed.set(f.sha256, f.error);
    progress.step('upload', done.stored.length + done.failed.length);
    progress.count('blobsUploaded', done.stored.length);
    await packs.remove(row.id);
  }

  /**
   * The bytes [start, end) of the pack's concatenated blobs, from where each lives. Small pieces are read a window
   * ahead, side by side: a pack of a thousand small blobs is a thousand reads, and one after another each would wait
   * its turn in the thread pool.
   */
  async function* bytesOf(blobs: PendingBlob[], start: number, end: number): AsyncGenerator<Buffer> {
    const pieces = piecesOf(blobs, start, end);
    const ahead = new Map<number, Promise<Buffer>>();
    for (let i = 0; i < pieces.length; i++) {
      for (let j = i; j < Math.min(pieces.length, i + READ_AHEAD); j++) {
        if (ahead.has(j) || pieces[j].to - pieces[j].from > SMALL_PIECE) continue;
        const read = readWhole(pieces[j]);
        read.catch(() => undefined); // heard when its turn comes
        ahead.set(j, read);
      }
      const early = ahead.get(i);
      ahead.delete(i);
      if (early) yield await early;
      else yield* await stream(pieces[i]);
    }
  }

  async function readWhole({ blob, from, to }: Piece): Promise<Buffer> {
    if (!('blobKey' in blob.source)) return (await recordBytesOf(blob)).subarray(from, to);
    const path = store.blobs.pathOf(blob.source.blobKey);
    const bytes = path && (await readFileRange(path, from, to - from));
    if (!bytes) {
      const chunks: Buffer[] = [];
      for await (const chunk of await stream({ blob, from, to })) chunks.push(chunk);
      return Buffer.concat(chunks);
    }
    if (bytes.length !== to - from) throw new Error(`The bytes of ${blob.sha256} changed meanwhile`);
    return bytes;
  }

  async function stream({ blob, from, to }: Piece): Promise<AsyncIterable<Buffer> | Iterable<Buffer>> {
    if (!('blobKey' in blob.source)) return [(await recordBytesOf(blob)).subarray(from, to)];
    const [start, end] = [from, to - 1];
    // A file the store keeps: read in 1 MiB chunks (a part is 8 MiB), not the default 64 KiB
    const path = store.blobs.pathOf(blob.source.blobKey);
    const there = path && (await stat(path).catch(() => undefined));
    const bytes = there
      ? createReadStream(path, { start, end, highWaterMark: 1 << 20 })
      : await store.blobs.get(blob.source.blobKey, { start, end });
    if (!bytes) throw new Error(`The bytes of ${blob.sha256} are gone from this workspace`);
    return bytes;
  }

  async function recordBytesOf(blob: PendingBlob): Promise<Buffer> {
    const bytes = await recordBytes(blob.source as Extract<PackSource, { kind: string }>);
    if (sha256Hex(bytes) !== blob.sha256)
      throw new Error(`The record behind ${blob.sha256} changed meanwhile`);
    return bytes;
  }

  async function recordBytes(source: Extract<PackSource, { kind: string }>): Promise<Buffer> {
    const adapter = kinds.of(source.kind);
    const row = await store.collection(adapter.collection, workspaceId).get(source.recordId);
    return Buffer.from(row ? JSON.stringify(adapter.payload(row)) : '');
  }

  return { upload, resume };
}

function* groups(blobs: PendingBlob[]): Generator<PendingBlob[]> {
  let group: PendingBlob[] = [];
  let bytes = 0;
  for (const blob of blobs) {
    if (group.length && (bytes + blob.size > PACK_BYTES || group.length >= PACK_BLOBS)) {
      yield group;
      group = [];
      bytes = 0;
    }
    group.push(blob);
    bytes += blob.size;
  }
  if (group.length) yield group;
}

/** Where the bytes [start, end) of a pack lie: [from, to) of each blob they cross. */
type Piece = { blob: PendingBlob; from: number; to: number };

function piecesOf(blobs: PendingBlob[], start: number, end: number): Piece[] {
  const pieces: Piece[] = [];
  let offset = 0;
  for (const blob of blobs) {
    const from = Math.max(start, offset) - offset;
    const to = Math.min(end, offset + blob.size) - offset;
    offset += blob.size;
    if (from < to) pieces.push({ blob, from, to });
  }
  return pieces;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
