// Fetches the bytes pulled records need into <data>/sync/downloads/<workspace>/: small blobs many to a request,
// large ones alone and resumable (a cut download goes on from the bytes it has). Every blob is hashed before use,
// and bytes the workspace already holds (another asset with the same SHA-256) are linked, not fetched.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import { blobAsFile } from '../blob-file.js';
import type { BlobFile, BlobSource } from '../kinds/types.js';
import type { BlobRef } from '../protocol/schema.js';
import { type Remote, RemoteError } from './hosted-client.js';
import type { Progress } from './progress.js';

const LARGE = 8 << 20;
const BATCH_BYTES = 64 << 20;
const BATCH_BLOBS = 500;

export function createDownloader(deps: {
  store: Store;
  assets: AssetService;
  workspaceId: string;
  remote: Remote;
  dir: string;
  progress: Progress;
}) {
  const { store, assets, workspaceId, remote, dir, progress } = deps;
  const ready = (sha: string) => join(dir, `${sha}.blob`);
  const partial = (sha: string) => join(dir, `${sha}.part`);

  const downloaded = (blob: BlobRef) =>
    stat(ready(blob.sha256)).then(
      (s) => s.size === blob.size,
      () => false,
    );

  /** Fetches what is missing; resolves to the hashes that could not be fetched, with why. */
  async function ensure(blobs: BlobRef[]): Promise<Map<string, string>> {
    await mkdir(dir, { recursive: true });
    const failed = new Map<string, string>();
    const unique = [...new Map(blobs.filter((b) => b.size > 0).map((b) => [b.sha256, b])).values()];
    const held = await assets.withSha256s(
      workspaceId,
      unique.map((b) => b.sha256),
    );
    const need: BlobRef[] = [];
    for (const blob of unique) if (!held.has(blob.sha256) && !(await downloaded(blob))) need.push(blob);
    progress.add(
      'pull',
      0,
      need.reduce((n, b) => n + b.size, 0),
    );
    for (const blob of need.filter((b) => b.size >= LARGE)) await fetchLarge(blob, failed);
    for (const batch of batches(need.filter((b) => b.size < LARGE))) await fetchBatch(batch, failed);
    return failed;
  }

  async function fetchBatch(batch: BlobRef[], failed: Map<string, string>): Promise<void> {
    const res = await remote.fetchBlobs(batch.map((b) => b.sha256)).catch((error) => {
      if (error instanceof RemoteError && error.status === 404) return undefined;
      throw error;
    });
    // Some blob of the batch is gone from the hosted side: each one alone, so only the missing ones fail.
    if (!res) {
      for (const blob of batch) await fetchLarge(blob, failed);
      return;
    }
    const reader = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream)[
      Symbol.asyncIterator
    ]();
    let carry: Buffer = Buffer.alloc(0);
    for (const blob of batch) {
      const tmp = join(dir, `${blob.sha256}.${nanoid(6)}.tmp`);
      const file = await open(tmp, 'w');
      const hash = createHash('sha256');
      let left = blob.size;
      try {
        while (left > 0) {
          if (carry.length === 0) {
            const next = await reader.next();
            if (next.done) throw new Error('the download ended early');
            carry = next.value as Buffer;
          }
          const piece = carry.subarray(0, left);
          carry = carry.subarray(piece.length);
          hash.update(piece);
          await file.write(piece);
          left -= piece.length;
        }
      } finally {
        await file.close();
      }
      await settle(blob, tmp, hash.digest('hex'), failed);
    }
  }

  /** One large blob, continuing a partial download where one is left. */
  async function fetchLarge(blob: BlobRef, failed: Map<string, string>): Promise<void> {
    const path = partial(blob.sha256);
    const have = await stat(path).then(
      (s) => (s.size < blob.size ? s.size : 0),
      () => 0,
    );
    const res = await remote.blob(blob.sha256, have).catch((error) => {
      if (error instanceof RemoteError && error.status === 404) return undefined;
      throw error;
    });
    if (!res) {
      failed.set(blob.sha256, `The hosted Folio no longer has the bytes ${blob.sha256}`);
      return;
    }
    const from = res.status === 206 ? have : 0;
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          progress.step('pull', 0, chunk.length);
          yield chunk;
        }
      },
      (await open(path, from > 0 ? 'a' : 'w')).createWriteStream(),
    );
    const hash = createHash('sha256');
    await pipeline(createReadStream(path), hash);
    await settle(blob, path, hash.digest('hex'), failed);
  }

  async function settle(blob: BlobRef, path: string, got: string, failed: Map<string, string>) {
    if (got === blob.sha256) {
      await rename(path, ready(blob.sha256));
      if (blob.size < LARGE) progress.step('pull', 0, blob.size);
      progress.count('blobsDownloaded');
      return;
    }
    await rm(path, { force: true });
    failed.set(blob.sha256, `The downloaded bytes hash to ${got}, not ${blob.sha256}`);
  }

  /** Local files for writing pulled records: the download, else bytes the workspace already holds (linked). */
  const source: BlobSource = {
    async file(blob): Promise<BlobFile | undefined> {
      if (blob.size === 0) return scratch(async (path) => writeFile(path, ''));
      const path = ready(blob.sha256);
      if (await downloaded(blob)) return { path, release: () => rm(path, { force: true }) };
      const holder = await assets.withSha256(workspaceId, blob.sha256);
      return holder ? blobAsFile(store, assets.blobKeyOf(workspaceId, holder.id), dir) : undefined;
    },
  };

  async function scratch(make: (path: string) => Promise<void>): Promise<BlobFile> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, `scratch-${nanoid(10)}`);
    await make(path);
    return { path, release: () => rm(path, { force: true }) };
  }

  return { ensure, source };
}

function* batches(blobs: BlobRef[]): Generator<BlobRef[]> {
  let batch: BlobRef[] = [];
  let bytes = 0;
  for (const blob of blobs) {
    if (batch.length && (bytes + blob.size > BATCH_BYTES || batch.length >= BATCH_BLOBS)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(blob);
    bytes += blob.size;
  }
  if (batch.length) yield batch;
}
