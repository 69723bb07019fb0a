// Packs: many blobs sent as one chunked upload (the same begin / parts / complete as long audio, so a 2 GB blob
// resumes from its last part and a thousand small ones cost a handful of requests). Complete splits the joined
// file by the manifest given at begin and stages every blob whose bytes hash to its name.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { badRequest, payloadTooLarge } from '../../../http/errors.js';
import type { Store } from '../../../store/types.js';
import type { ChunkedUploads } from '../../uploads/chunked/service.js';
import type { BeginPackBody, BlobRef, CompletedPack } from '../protocol/schema.js';
import { packKey, stagedKey, type WorkspaceBlobs } from './workspace-blobs.js';

export const PACK_PURPOSE = 'sync-pack';

type Manifest = { blobs: Array<BlobRef & { offset: number }> };

export function createPacks(deps: {
  store: Store;
  chunkedUploads: ChunkedUploads;
  blobs: WorkspaceBlobs;
  maxBytes: number;
}) {
  const { store, chunkedUploads, blobs } = deps;

  async function begin(workspaceId: string, body: BeginPackBody) {
    let offset = 0;
    const manifest: Manifest = { blobs: [] };
    for (const blob of body.blobs) {
      manifest.blobs.push({ ...blob, offset });
      offset += blob.size;
    }
    if (offset === 0) throw badRequest('A pack must hold at least one byte; empty blobs need no pack');
    if (offset > deps.maxBytes)
      throw payloadTooLarge(`This pack is larger than the ${deps.maxBytes}-byte upload limit`);
    const upload = await chunkedUploads.begin(
      workspaceId,
      {
        filename: 'sync-pack',
        contentType: 'application/octet-stream',
        size: offset,
        partSize: body.partSize,
      },
      { purpose: PACK_PURPOSE, manifest },
    );
    return chunkedUploads.present(upload);
  }

  async function status(workspaceId: string, uploadId: string) {
    const upload = await chunkedUploads.find(workspaceId, uploadId);
    if (upload.purpose !== PACK_PURPOSE) throw badRequest('This upload is not a sync pack');
    const { status, missingParts } = await chunkedUploads.status(workspaceId, uploadId);
    return { ...chunkedUploads.present(upload), status, missingParts };
  }

  const complete = (workspaceId: string, uploadId: string): Promise<CompletedPack> =>
    chunkedUploads.completeWith(workspaceId, uploadId, PACK_PURPOSE, async (file, upload) => {
      try {
        return await split(workspaceId, uploadId, file, (upload.manifest as Manifest).blobs);
      } finally {
        await rm(file.path, { force: true });
      }
    });

  /**
   * Hashes each blob's range of the joined file in one pass, then keeps the file: as the blob itself when the pack
   * holds one, else whole, with each blob that hashed right staged at its offset.
   */
  async function split(
    workspaceId: string,
    uploadId: string,
    file: { path: string; size: number; sha256: string },
    manifest: Manifest['blobs'],
  ): Promise<CompletedPack> {
    // One blob is the whole file, whose SHA-256 the complete has just checked: no second pass over its bytes.
    const hashes =
      manifest.length === 1 && manifest[0].size === file.size
        ? [file.sha256]
        : await hashRanges(file.path, manifest);
    const good = manifest.filter((b, i) => hashes[i] === b.sha256);
    const failed = manifest
      .map((b, i) => ({ sha256: b.sha256, error: `Its bytes hash to ${hashes[i]}; send it again` }))
      .filter((_, i) => hashes[i] !== manifest[i].sha256);
    if (good.length === 0) return { stored: [], failed };
    if (manifest.length === 1) {
      await store.blobs.putFile(stagedKey(workspaceId, good[0].sha256), file.path);
      await blobs.stage(workspaceId, good);
    } else {
      await store.blobs.putFile(packKey(workspaceId, uploadId), file.path);
      await blobs.stage(workspaceId, good, uploadId);
    }
    return { stored: good.map((b) => b.sha256), failed };
  }

  return { begin, status, complete };
}

/** SHA-256 of each blob's bytes in the joined file, reading it once. */
async function hashRanges(path: string, manifest: Manifest['blobs']): Promise<string[]> {
  const hashes = manifest.map(() => createHash('sha256'));
  let index = 0;
  let position = 0;
  const skipEmpty = () => {
    while (index < manifest.length && manifest[index].size === 0) index++;
  };
  skipEmpty();
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length && index < manifest.length) {
      const blob = manifest[index];
      const take = Math.min(chunk.length - at, blob.offset + blob.size - position);
      hashes[index].update(chunk.subarray(at, at + take));
      at += take;
      position += take;
      if (position === blob.offset + blob.size) {
        index++;
        skipEmpty();
      }
    }
  }
  return hashes.map((h) => h.digest('hex'));
}
