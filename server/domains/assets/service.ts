/**
 * Assets: making one from a file (create-asset.ts: checked, bytes and record in one unit; every way a file arrives is
 * in domains/uploads/), records, usage, and lookups for the serve routes.
 */
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import { createImageCache } from '../../engines/image/image-cache.js';
import { notFound } from '../../http/errors.js';
import type { ByteRange, Store } from '../../store/types.js';
import { isAssetKey } from './asset-key.js';
import { assetBlobKey, assetsCollection, searchTextOf } from './collections.js';
import { createAssetWriter } from './create-asset.js';
import { sweepOrphanFiles } from './orphan-files.js';
import { presentAsset } from './present-asset.js';
import type { AssetRecord, ListAssetsQuery, PatchAssetBody, Usage } from './schema.js';

export type { CreateOptions, NewAssetMeta } from './create-asset.js';
export type { IncomingFile } from './ingest/inspect-file.js';

export interface AssetServiceDeps {
  store: Store;
  config: Pick<Config, 'dataDir'>;
  /** Bound on all cached image derivatives together (default 1 GiB). */
  imageCacheBytes?: number;
}

/** What the serve routes need: the record and, on a local file system, the file itself; else a reader. */
export type FoundAsset = {
  record: AssetRecord;
  workspaceId: string;
  blobKey: string;
  path: string | undefined;
  /** The bytes, or a range of them, from wherever the store keeps them (a bucket). */
  read(range?: ByteRange): Promise<Readable | undefined>;
  /** A local copy for a tool that needs a path (image rendering); release it when done. */
  localFile(): Promise<{ path: string; release(): Promise<void> } | undefined>;
};

export function createAssetService({ store, config, imageCacheBytes = 1 << 30 }: AssetServiceDeps) {
  const imageCache = createImageCache({
    dir: join(config.dataDir, 'cache', 'img'),
    maxBytes: imageCacheBytes,
  });
  const assets = (workspaceId: string) => store.collection(assetsCollection, workspaceId);
  const { create } = createAssetWriter(store);

  async function get(workspaceId: string, id: string): Promise<AssetRecord> {
    const record = await assets(workspaceId).get(id);
    if (!record) throw notFound('Asset');
    return record;
  }

  async function update(workspaceId: string, id: string, patch: PatchAssetBody): Promise<AssetRecord> {
    const current = await get(workspaceId, id);
    const next = { ...current, ...patch };
    const updated = await assets(workspaceId).update(id, {
      ...patch,
      searchText: searchTextOf(next),
      updatedAt: new Date().toISOString(),
    });
    if (!updated) throw notFound('Asset');
    return updated;
  }

  /**
   * For sync: changes `displayName`/`tags` only if the record is still the version `seq` (the store checks and
   * writes in one step); undefined when it is missing or moved on.
   */
  async function updateIf(
    workspaceId: string,
    id: string,
    patch: PatchAssetBody,
    { seq, updatedAt }: { seq: number; updatedAt: string },
  ): Promise<AssetRecord | undefined> {
    const current = await assets(workspaceId).get(id);
    if (!current || current.seq !== seq) return undefined;
    const searchText = searchTextOf({ ...current, ...patch });
    return assets(workspaceId).update(id, { ...patch, searchText, updatedAt }, { if: { seq } });
  }

  /**
   * Deletes the record, its bytes and its cached derivatives. False when it did not exist, or (sync) when `ifSeq`
   * is given and the record is no longer that version.
   */
  async function remove(
    workspaceId: string,
    id: string,
    { ifSeq }: { ifSeq?: number } = {},
  ): Promise<boolean> {
    const record = await assets(workspaceId).get(id);
    const condition = ifSeq === undefined ? undefined : { if: { seq: ifSeq } };
    if (!record || !(await assets(workspaceId).remove(id, condition))) return false; // the record first: serving stops
    await store.blobs.delete(assetBlobKey(workspaceId, id));
    await imageCache.removeKey(record.key);
    return true;
  }

  /** Resolves a public serve key to its record and bytes; undefined for malformed or unknown keys. */
  async function byKey(key: string): Promise<FoundAsset | undefined> {
    if (!isAssetKey(key)) return undefined;
    const found = await store.lookup(assetsCollection, 'key', key);
    if (!found) return undefined;
    const blobKey = assetBlobKey(found.workspaceId, found.row.id);
    return {
      record: found.row,
      workspaceId: found.workspaceId,
      blobKey,
      path: store.blobs.pathOf(blobKey),
      read: (range) => store.blobs.get(blobKey, range),
      localFile: () => store.blobs.localFile(blobKey),
    };
  }

  /** An asset of the workspace holding exactly these bytes (sync sends bytes a workspace already has once). */
  const withSha256 = (workspaceId: string, sha256: string) => assets(workspaceId).findOne({ sha256 });
  /** Which of these SHA-256s the workspace holds, in one query. */
  const withSha256s = async (workspaceId: string, shas: string[]) =>
    new Set(
      shas.length ? (await assets(workspaceId).all({ sha256: { in: shas } })).map((a) => a.sha256) : [],
    );

  /** A local path to an asset's bytes for a native tool (ffmpeg, Whisper); release it when done. */
  async function localFile(workspaceId: string, id: string) {
    await get(workspaceId, id);
    const local = await store.blobs.localFile(assetBlobKey(workspaceId, id));
    if (!local) throw notFound('Asset file');
    return local;
  }

  /** An asset's bytes, for a reader in another domain (a chart's data); undefined when they are gone. */
  async function bytes(workspaceId: string, id: string): Promise<Readable | undefined> {
    return store.blobs.get(assetBlobKey(workspaceId, id));
  }

  /** Exact: summed from the records, which are written only once the bytes are in place. */
  async function usage(workspaceId: string): Promise<Usage> {
    const rows = assets(workspaceId);
    return { assets: await rows.count(), bytes: await rows.sum('size') };
  }

  /** Called before a workspace is dropped: forgets its cached derivatives (its blobs go with it). */
  async function forgetWorkspace(workspaceId: string): Promise<void> {
    for (const asset of await assets(workspaceId).all()) await imageCache.removeKey(asset.key);
  }

  return {
    /** Checks a received file (taking ownership of it) and stores it with its record: what every upload ends in. */
    create,
    list: (workspaceId: string, query: ListAssetsQuery) =>
      assets(workspaceId).list({
        where: {
          ...(query.type && { type: query.type }),
          ...(query.tags.length && { tags: { hasAll: query.tags } }),
        },
        search: query.search?.trim()
          ? { text: query.search.trim().toLowerCase(), fields: ['searchText'] }
          : undefined,
        limit: query.limit,
        cursor: query.cursor,
      }),
    get,
    update,
    updateIf,
    remove,
    withSha256,
    withSha256s,
    blobKeyOf: assetBlobKey,
    byKey,
    localFile,
    bytes,
    /** The JSON an asset answers as, with its URLs on `origin`. */
    present: presentAsset,
    usage,
    forgetWorkspace,
    /** Removes bytes without a record once older than `graceMs` (orphan-files.ts says what leaves them). */
    sweepOrphans: (graceMs: number) => sweepOrphanFiles(store, graceMs),
    imageCache,
    /** What a change feed (sync) follows: the store's feed names a collection by its spec. */
    collection: assetsCollection,
  };
}

export type AssetService = ReturnType<typeof createAssetService>;
