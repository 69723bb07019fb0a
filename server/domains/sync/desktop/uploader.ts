// Sends the blobs the server lacks, in packs (one chunked upload each). A pack is recorded before its first part
// goes, so a run that dies mid-way resumes it at the parts the server is missing; the server answers which blobs
// it stored, and a blob it has is never sent again (the plan asks first).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Store } from '../../../store/types.js';
import type { PackRecord, PackSource } from '../collections.js';
import { syncPacks } from '../collections.js';
import type { Kinds } from '../kinds/index.js';
import { sha256Hex } from '../protocol/content-hash.js';
import type { Progress } from './progress.js';
import { type Remote, RemoteError } from './remote.js';

/** Small blobs share a pack up to this size; a larger blob is a pack of its own. */
export const PACK_BYTES = 64 << 20;
const PACK_BLOBS = 1000;

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

  /** Uploads `blobs`; resolves to the hashes the server could not store, with why. */
  async function upload(blobs: PendingBlob[]): Promise<Map<string, string>> {
    const failed = new Map<string, string>();
    const unique = [...new Map(blobs.filter((b) => b.size > 0).map((b) => [b.sha256, b])).values()];
    progress.add(
      'upload',
      unique.length,
      unique.reduce((n, b) => n + b.size, 0),
    );
    for (const group of groups(unique)) {
      const begun = await remote.beginPack({ blobs: group.map(({ sha256, size }) => ({ sha256, size })) });
      const row: PackRecord = {
        id: begun.uploadId,
        remote: remote.baseUrl,
        blobs: group,
        size: begun.size,
        createdAt: new Date().toISOString(),
      };
      await packs.insert(row);
      await finish(row, begun.partSize, range(begun.partCount), failed);
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
      await finish(row, status.partSize, missing, new Map());
    }
  }

  async function finish(row: PackRecord, partSize: number, parts: number[], failed: Map<string, string>) {
    for (const index of parts) {
      const start = index * partSize;
      const end = Math.min(row.size, start + partSize);
      await remote.putPart(row.id, index, Readable.from(bytesOf(row.blobs, start, end)), end - start);
      progress.step('upload', 0, end - start);
      progress.count('partsSent');
      progress.count('bytesSent', end - start);
    }
    const done = await remote.completePack(row.id);
    for (const f of done.failed) failed.set(f.sha256, f.error);
    progress.step('upload', done.stored.length + done.failed.length);
    progress.count('blobsUploaded', done.stored.length);
    await packs.remove(row.id);
  }

  /** The bytes [start, end) of the pack's concatenated blobs, streamed from where each lives. */
  async function* bytesOf(blobs: PendingBlob[], start: number, end: number): AsyncGenerator<Buffer> {
    let offset = 0;
    for (const blob of blobs) {
      const from = Math.max(start, offset);
      const to = Math.min(end, offset + blob.size);
      offset += blob.size;
      if (from >= to) continue;
      const lo = from - (offset - blob.size);
      yield* await read(blob, lo, lo + (to - from) - 1);
    }
  }

  async function read(
    blob: PendingBlob,
    start: number,
    end: number,
  ): Promise<AsyncIterable<Buffer> | Iterable<Buffer>> {
    if ('blobKey' in blob.source) {
      // A file the store keeps: read in 1 MiB chunks (a part is 8 MiB), not the default 64 KiB
      const path = store.blobs.pathOf(blob.source.blobKey);
      const there = path && (await stat(path).catch(() => undefined));
      const stream = there
        ? createReadStream(path, { start, end, highWaterMark: 1 << 20 })
        : await store.blobs.get(blob.source.blobKey, { start, end });
      if (!stream) throw new Error(`The bytes of ${blob.sha256} are gone from this workspace`);
      return stream;
    }
    const bytes = await recordBytes(blob.source);
    if (sha256Hex(bytes) !== blob.sha256)
      throw new Error(`The record behind ${blob.sha256} changed meanwhile`);
    return [bytes.subarray(start, end + 1)];
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

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
