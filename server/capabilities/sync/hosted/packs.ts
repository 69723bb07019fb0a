// Packs: many blobs sent as one chunked upload (the same begin / parts / complete as long audio, so a 2 GB blob
// resumes from its last part and a thousand small ones cost a handful of requests). Complete splits the joined
// file by the manifest given at begin and stages every blob whose bytes hash to its name.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { badRequest, payloadTooLarge } from '../../../http/errors.js';
import type { Store } from '../../../store/types.js';
import type { ChunkedUploads } from '../../chunked-uploads/service.js';
import type { BeginPackBody, BlobRef, CompletedPack } from '../schema.js';
import type { WorkspaceBlobs } from './workspace-blobs.js';

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
        return await split(workspaceId, file, (upload.manifest as Manifest).blobs);
      } finally {
        await rm(file.path, { force: true });
      }
    });

  async function split(
    workspaceId: string,
    file: { path: string; sha256: string },
    manifest: Manifest['blobs'],
  ): Promise<CompletedPack> {
    const result: CompletedPack = { stored: [], failed: [] };
    const [only] = manifest;
    if (manifest.length === 1 && only.sha256 === file.sha256) {
      // One blob, already hashed whole while joining: moved into place, not copied.
      await blobs.stage(workspaceId, only, async (key) => void (await store.blobs.putFile(key, file.path)));
      return { stored: [only.sha256], failed: [] };
    }
    for (const blob of manifest) {
      let got = '';
      await blobs
        .stage(workspaceId, blob, async (key) => {
          const source = blob.size === 0 ? Buffer.alloc(0) : createReadStream(file.path, range(blob));
          got = (await store.blobs.put(key, source)).sha256;
          if (got !== blob.sha256) {
            await store.blobs.delete(key);
            throw new Error('mismatch');
          }
        })
        .then(
          () => result.stored.push(blob.sha256),
          (error) =>
            result.failed.push({
              sha256: blob.sha256,
              error:
                (error as Error).message === 'mismatch'
                  ? `Its bytes hash to ${got}; send it again`
                  : (error as Error).message,
            }),
        );
    }
    return result;
  }

  return { begin, status, complete };
}

const range = (blob: { offset: number; size: number }) => ({
  start: blob.offset,
  end: blob.offset + blob.size - 1,
});
