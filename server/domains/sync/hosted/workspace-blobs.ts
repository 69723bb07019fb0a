// The bytes a workspace holds, by SHA-256: blobs staged by packs (waiting for the record that uses them) and the
// blobs of its assets. Lookups never look outside the workspace, so what another workspace holds stays unknown.
// A pack of many small blobs is kept whole; a record that takes one of them gets its bytes cut out then, so each
// small blob is written (and fsynced) once, as the asset, rather than twice.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import pMap from 'p-map';
import { pipeIntoFile } from '../../../store/file/pipe-into-file.js';
import { readFileRange } from '../../../store/file/read-file-range.js';
import type { ByteRange, Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import { blobAsFile } from '../blob-file.js';
import { type StagedBlobRecord, stagedBlobs } from '../collections.js';
import type { BlobFile, BlobSource } from '../kinds/types.js';
import type { BlobRef } from '../protocol/schema.js';

/** Blobs cut out of a pack up to this size are read into memory (at most 64 lanes of a push at once: 16 MiB). */
const IN_MEMORY_BYTES = 256 << 10;

export const stagedKey = (workspaceId: string, sha256: string) =>
  `workspaces/${workspaceId}/sync-blobs/${sha256}`;
export const packKey = (workspaceId: string, pack: string) => `workspaces/${workspaceId}/sync-packs/${pack}`;

/** Where a blob's bytes are: a key, and the range of it when they sit inside a pack. */
export type BlobPlace = { key: string; range?: ByteRange; size?: number };

export function createWorkspaceBlobs({ store, assets }: { store: Store; assets: AssetService }) {
  const staged = (workspaceId: string) => store.collection(stagedBlobs, workspaceId);

  const placeOfStaged = (workspaceId: string, row: StagedBlobRecord): BlobPlace =>
    row.pack === undefined
      ? { key: stagedKey(workspaceId, row.id), size: row.size }
      : {
          key: packKey(workspaceId, row.pack),
          range: { start: row.offset ?? 0, end: (row.offset ?? 0) + row.size - 1 },
          size: row.size,
        };

  /** Which of `shas` the workspace holds (two indexed queries, whatever the count). */
  async function held(workspaceId: string, shas: string[]): Promise<Set<string>> {
    if (shas.length === 0) return new Set();
    const unique = [...new Set(shas)];
    const found = new Set((await staged(workspaceId).all({ id: { in: unique } })).map((r) => r.id));
    const rest = unique.filter((s) => !found.has(s));
    for (const sha of await assets.withSha256s(workspaceId, rest)) found.add(sha);
    return found;
  }

  /** Where `sha256`'s bytes are in the workspace, if anywhere (staged first: found by id, not by a search). */
  async function locate(workspaceId: string, sha256: string): Promise<BlobPlace | undefined> {
    const row = await staged(workspaceId).get(sha256);
    if (row) return placeOfStaged(workspaceId, row);
    const asset = await assets.withSha256(workspaceId, sha256);
    return asset ? { key: assets.blobKeyOf(workspaceId, asset.id), size: asset.size } : undefined;
  }

  /** Records blobs that arrived (their bytes already in place), alone or at their offsets in a pack. */
  async function stage(
    workspaceId: string,
    blobs: Array<BlobRef & { offset?: number }>,
    pack?: string,
  ): Promise<void> {
    const createdAt = new Date().toISOString();
    await pMap(
      blobs,
      async (blob) => {
        const row: StagedBlobRecord = {
          id: blob.sha256,
          size: blob.size,
          createdAt,
          ...(pack !== undefined && { pack, offset: blob.offset ?? 0 }),
        };
        await staged(workspaceId)
          .insert(row)
          .catch((error) => {
            if ((error as Error).name !== 'StoreConflict') throw error;
          });
      },
      { concurrency: 32 },
    );
  }

  /**
   * Bytes for writing records: the workspace's own, never taken from it: a link or copy of a whole blob
   * (blob-file.ts), or a blob cut out of its pack, read into memory when small (the record writer then writes it
   * once, without a temporary file), else into a file.
   */
  function sourceFor(workspaceId: string): BlobSource {
    return {
      async file(blob): Promise<BlobFile | undefined> {
        const place = await locate(workspaceId, blob.sha256);
        if (!place) return undefined;
        if (!place.range) return blobAsFile(store, place.key);
        if (place.range.end - place.range.start + 1 <= IN_MEMORY_BYTES) {
          const bytes = await readRange(place.key, place.range);
          return bytes && { bytes, release: async () => {} };
        }
        const bytes = await store.blobs.get(place.key, place.range);
        if (!bytes) return undefined;
        const path = join(store.tmpDir, `sync-${nanoid(10)}`);
        const release = () => rm(path, { force: true });
        await pipeIntoFile(path, (out) => pipeline(bytes, out)).catch(async (error) => {
          await release();
          throw error;
        });
        return { path, release };
      },
    };
  }

  async function readRange(key: string, range: ByteRange): Promise<Buffer | undefined> {
    const length = range.end - range.start + 1;
    const path = store.blobs.pathOf(key);
    const bytes = path ? await readFileRange(path, range.start, length) : await readStream(key, range);
    return bytes?.length === length ? bytes : undefined;
  }

  async function readStream(key: string, range: ByteRange): Promise<Buffer | undefined> {
    const stream = await store.blobs.get(key, range);
    if (!stream) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** A staged blob a record now holds: its staging goes, and its pack once no staged blob is left in it. */
  async function consumed(workspaceId: string, sha256: string): Promise<void> {
    const row = await staged(workspaceId).get(sha256);
    if (!row) return;
    await staged(workspaceId).remove(sha256);
    await dropPlace(workspaceId, row);
  }

  async function dropPlace(workspaceId: string, row: StagedBlobRecord): Promise<void> {
    if (row.pack === undefined) return store.blobs.delete(stagedKey(workspaceId, row.id));
    if (!(await staged(workspaceId).findOne({ pack: row.pack })))
      await store.blobs.delete(packKey(workspaceId, row.pack));
  }

  /** Staged blobs no record took within `maxAgeMs` (an abandoned sync). */
  async function sweep(maxAgeMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - maxAgeMs).toISOString();
    let swept = 0;
    for (const workspaceId of await store.workspacesWith(stagedBlobs))
      for (const row of await staged(workspaceId).all({ createdAt: { lt: cutoff } })) {
        await staged(workspaceId).remove(row.id);
        await dropPlace(workspaceId, row);
        swept++;
      }
    return swept;
  }

  return { held, locate, stage, sourceFor, consumed, sweep };
}

export type WorkspaceBlobs = ReturnType<typeof createWorkspaceBlobs>;
