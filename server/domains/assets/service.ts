/** Assets: uploads (direct, grant, from a file on disk), records, usage, and lookups for the serve routes. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import { createImageCache } from '../../engines/image/image-cache.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { ReceivedFile } from '../../http/receive-multipart.js';
import { StoreConflict } from '../../store/errors.js';
import { newId } from '../../store/ids.js';
import type { ByteRange, Store } from '../../store/types.js';
import { isAssetKey, newAssetKey } from './asset-key.js';
import { assetBlobKey, assetsCollection, searchTextOf } from './collections.js';
import { type FileRules, type IncomingFile, inspectFile } from './ingest/inspect-file.js';
import {
  type AssetRecord,
  DisplayName,
  type ListAssetsQuery,
  type PatchAssetBody,
  Tags,
  type Usage,
} from './schema.js';
import { createUploadGrants } from './upload-grants.js';

export interface AssetServiceDeps {
  store: Store;
  config: Pick<Config, 'dataDir' | 'limits'>;
  /** Bound on all cached image derivatives together (default 1 GiB). */
  imageCacheBytes?: number;
}

export interface NewAssetMeta {
  displayName?: string;
  tags?: string[];
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

/** Receives a multipart upload; `beforeFile` may refuse it or lower its byte limit before a byte is written. */
export type Receive = (
  beforeFile?: (fields: Record<string, string>) => Promise<{ maxBytes?: number } | undefined>,
) => Promise<ReceivedFile>;

export function createAssetService({ store, config, imageCacheBytes = 1 << 30 }: AssetServiceDeps) {
  const grants = createUploadGrants(store);
  const imageCache = createImageCache({
    dir: join(config.dataDir, 'cache', 'img'),
    maxBytes: imageCacheBytes,
  });
  const assets = (workspaceId: string) => store.collection(assetsCollection, workspaceId);

  /** Checks `file` (which this takes ownership of), moves its bytes into the store and inserts its record. */
  async function create(
    workspaceId: string,
    file: IncomingFile,
    meta: NewAssetMeta & { id?: string; createdAt?: string; updatedAt?: string },
    rules?: FileRules,
  ): Promise<AssetRecord> {
    const inspected = await inspectFile(file, rules);
    const id = meta.id ?? newId('ast');
    const blobKey = assetBlobKey(workspaceId, id);
    // A fixed id (a retried step) that exists: its bytes are at this key, so they are not written over.
    if (meta.id && (await assets(workspaceId).get(meta.id))) {
      await rm(file.path, { force: true });
      throw new StoreConflict(assetsCollection.name, 'id', meta.id);
    }
    try {
      await store.blobs.putFile(blobKey, file.path);
    } catch (error) {
      await rm(file.path, { force: true });
      throw error;
    }
    const now = meta.createdAt ?? new Date().toISOString();
    const displayName = meta.displayName ?? file.filename;
    const tags = meta.tags ?? [];
    const record: AssetRecord = {
      id,
      key: newAssetKey(),
      displayName,
      filename: file.filename,
      tags,
      type: inspected.assetType,
      size: inspected.size,
      contentType: inspected.contentType,
      sha256: inspected.sha256,
      ...(inspected.width ? { width: inspected.width, height: inspected.height } : {}),
      ...(inspected.duration !== undefined ? { duration: inspected.duration } : {}),
      searchText: searchTextOf({ displayName, filename: file.filename, tags }),
      createdAt: now,
      updatedAt: meta.updatedAt ?? now,
    };
    try {
      return await assets(workspaceId).insert(record);
    } catch (error) {
      // A record never points at nothing, and bytes never lack a record. The one exception: a fixed id that
      // another request created meanwhile (the same step retried, with the same bytes) owns this key now.
      const taken =
        meta.id !== undefined &&
        (await assets(workspaceId)
          .get(id)
          .catch(() => undefined));
      if (!taken) await store.blobs.delete(blobKey);
      throw error;
    }
  }

  /** POST /api/v1/uploads: the received file, with optional `displayName` and `tags` fields. */
  async function upload(workspaceId: string, received: ReceivedFile): Promise<AssetRecord> {
    let meta: NewAssetMeta;
    try {
      meta = metaFromFields(received.fields);
    } catch (error) {
      await rm(received.tmpPath, { force: true });
      throw error;
    }
    return create(workspaceId, incoming(received), meta);
  }

  /** POST /api/v1/uploads/client: the grant comes as a bearer token, or as a form field before the file. */
  async function uploadWithGrant(bearer: string | undefined, receive: Receive): Promise<AssetRecord> {
    // Claimed before a byte is read: the race between uses is decided here.
    let claim = bearer ? await grants.claim(bearer) : undefined;
    try {
      const received = await receive(async (fields) => {
        claim ??= await grants.claim(fields.grant);
        return { maxBytes: claim.grant.maxBytes };
      });
      const { grant } = claim!;
      const record = await create(
        grant.workspaceId,
        incoming(received),
        { displayName: grant.displayName, tags: grant.tags },
        { maxBytes: grant.maxBytes, allowedTypes: grant.allowedTypes },
      );
      await claim!.consume(record.id);
      return record;
    } catch (error) {
      await claim?.release(); // no asset was made: the holder may retry while the grant is valid
      throw error;
    }
  }

  /** For other capabilities (chunked uploads, realtime): takes ownership of a file already on local disk. */
  async function createFromFile(
    workspaceId: string,
    input: {
      /** A fixed id, so a retried step finds the asset it made before (chunked complete). */
      id?: string;
      path: string;
      filename: string;
      contentType?: string;
      displayName?: string;
      tags?: string[];
      sha256?: string;
      /** Kept from another instance (sync), so the copy lists where the original does. */
      createdAt?: string;
      updatedAt?: string;
    },
  ): Promise<AssetRecord> {
    const file = {
      path: input.path,
      filename: input.filename,
      contentTypeHint: input.contentType,
      sha256: input.sha256,
    };
    const { id, displayName, tags, createdAt, updatedAt } = input;
    return create(workspaceId, file, { id, displayName, tags, createdAt, updatedAt });
  }

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

  /** Exact: summed from the records, which are written only once the bytes are in place. */
  async function usage(workspaceId: string): Promise<Usage> {
    const rows = assets(workspaceId);
    return { assets: await rows.count(), bytes: await rows.sum('size') };
  }

  /** Called before a workspace is dropped: forgets its cached derivatives (its blobs go with it). */
  async function forgetWorkspace(workspaceId: string): Promise<void> {
    for (const asset of await assets(workspaceId).all()) await imageCache.removeKey(asset.key);
  }

  /**
   * Removes bytes that have no record: an upload cut off by a crash between moving its bytes in and writing its
   * record. Files younger than `graceMs` may belong to an upload still under way and are left alone.
   */
  async function sweepOrphans(graceMs: number): Promise<number> {
    let swept = 0;
    const cutoff = Date.now() - graceMs;
    for (const workspaceId of await store.workspacesWith(assetsCollection)) {
      for await (const blob of store.blobs.list(`workspaces/${workspaceId}/files`)) {
        if (blob.modifiedAt.getTime() > cutoff) continue;
        const id = blob.key.slice(blob.key.lastIndexOf('/') + 1);
        if (await assets(workspaceId).get(id)) continue;
        await store.blobs.delete(blob.key);
        swept++;
      }
    }
    return swept;
  }

  return {
    upload,
    uploadWithGrant,
    createFromFile,
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
    usage,
    forgetWorkspace,
    sweepOrphans,
    grants,
    imageCache,
  };
}

export type AssetService = ReturnType<typeof createAssetService>;

const incoming = (received: ReceivedFile): IncomingFile => ({
  path: received.tmpPath,
  filename: received.filename,
  size: received.size,
  sha256: received.sha256,
});

function metaFromFields(fields: Record<string, string>): NewAssetMeta {
  const meta: NewAssetMeta = {};
  if (fields.displayName !== undefined)
    meta.displayName = parseField('displayName', DisplayName, fields.displayName);
  if (fields.tags !== undefined) meta.tags = parseField('tags', Tags, splitTags(fields.tags));
  return meta;
}

function splitTags(value: string): unknown {
  if (value.trim().startsWith('[')) {
    try {
      return JSON.parse(value);
    } catch {
      throw badRequest('tags must be a comma-separated list or a JSON array of strings');
    }
  }
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

function parseField<T>(
  name: string,
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`Invalid ${name}: ${result.error.issues[0]?.message}`);
  return result.data;
}
