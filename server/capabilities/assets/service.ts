/** Assets: uploads (direct, grant, from a file on disk), records, usage, and lookups for the serve routes. */

import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import { isAssetKey, newAssetKey } from './asset-key.js';
import { listAssetRecords } from './asset-list.js';
import { createImageCache } from './image/image-cache.js';
import { receiveMultipart } from './ingest/receive-multipart.js';
import { type FileRules, type IncomingFile, storeFile } from './ingest/store-file.js';
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

const COLLECTION = 'assets';

export function createAssetService({ store, config, imageCacheBytes = 1 << 30 }: AssetServiceDeps) {
  const keys = new Map<string, { workspaceId: string; id: string }>(); // serve routes carry no workspace
  for (const workspaceId of store.scopes(COLLECTION)) {
    for (const a of assets(workspaceId).all()) keys.set(a.key, { workspaceId, id: a.id });
  }
  const grants = createUploadGrants(store);
  const imageCache = createImageCache({
    dir: join(config.dataDir, 'cache', 'img'),
    maxBytes: imageCacheBytes,
  });

  function assets(workspaceId: string) {
    return store.collection<AssetRecord>(COLLECTION, workspaceId);
  }

  const filePathOf = (workspaceId: string, id: string) => join(store.workspaceDir(workspaceId), 'files', id);

  /** Moves `file` (which this takes ownership of) into the workspace and inserts its record. */
  async function create(
    workspaceId: string,
    file: IncomingFile,
    meta: NewAssetMeta,
    rules?: FileRules,
  ): Promise<AssetRecord> {
    const id = newId('ast');
    const target = filePathOf(workspaceId, id);
    const stored = await storeFile(file, target, rules);
    const now = new Date().toISOString();
    const record: AssetRecord = {
      id,
      key: newAssetKey(),
      displayName: meta.displayName ?? file.filename,
      filename: file.filename,
      tags: meta.tags ?? [],
      type: stored.assetType,
      size: stored.size,
      contentType: stored.contentType,
      sha256: stored.sha256,
      ...(stored.width ? { width: stored.width, height: stored.height } : {}),
      ...(stored.duration !== undefined ? { duration: stored.duration } : {}),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await assets(workspaceId).insert(record);
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    keys.set(record.key, { workspaceId, id });
    return record;
  }

  /** POST /api/v1/uploads: multipart, field `file`, optional `displayName` and `tags` before or after it. */
  async function upload(workspaceId: string, req: IncomingMessage): Promise<AssetRecord> {
    const received = await receiveMultipart(req, {
      tmpDir: store.tmpDir,
      maxBytes: config.limits.uploadBytes,
    });
    const file = {
      path: received.tmpPath,
      filename: received.filename,
      size: received.size,
      sha256: received.sha256,
    };
    let meta: NewAssetMeta;
    try {
      meta = metaFromFields(received.fields);
    } catch (error) {
      await rm(received.tmpPath, { force: true });
      throw error;
    }
    return create(workspaceId, file, meta);
  }

  /** POST /api/v1/uploads/client: the grant comes as a bearer token or as a form field before the file. */
  async function uploadWithGrant(req: IncomingMessage, bearer: string | undefined): Promise<AssetRecord> {
    let claim = bearer ? grants.claim(bearer) : undefined; // claimed before a byte is read: the race is decided here
    try {
      const received = await receiveMultipart(req, {
        tmpDir: store.tmpDir,
        maxBytes: config.limits.uploadBytes,
        beforeFile: (fields) => {
          claim ??= grants.claim(fields.grant);
          return { maxBytes: claim.grant.maxBytes };
        },
      });
      const { grant } = claim!;
      const file = {
        path: received.tmpPath,
        filename: received.filename,
        size: received.size,
        sha256: received.sha256,
      };
      const record = await create(
        grant.workspaceId,
        file,
        { displayName: grant.displayName, tags: grant.tags },
        {
          maxBytes: grant.maxBytes,
          allowedTypes: grant.allowedTypes,
        },
      );
      await claim!.consume(record.id);
      return record;
    } catch (error) {
      claim?.release(); // no asset was created: the holder may retry while the grant is valid
      throw error;
    }
  }

  /** For other capabilities (chunked transcription uploads): takes ownership of a file already on disk. */
  async function createFromFile(
    workspaceId: string,
    input: {
      path: string;
      filename: string;
      contentType?: string;
      displayName?: string;
      tags?: string[];
      sha256?: string;
    },
  ): Promise<AssetRecord> {
    const file = {
      path: input.path,
      filename: input.filename,
      contentTypeHint: input.contentType,
      sha256: input.sha256,
    };
    return create(workspaceId, file, { displayName: input.displayName, tags: input.tags });
  }

  function get(workspaceId: string, id: string): AssetRecord {
    const record = assets(workspaceId).find(id);
    if (!record) throw notFound('Asset');
    return record;
  }

  async function update(workspaceId: string, id: string, patch: PatchAssetBody): Promise<AssetRecord> {
    get(workspaceId, id);
    const updated = await assets(workspaceId).update(id, { ...patch, updatedAt: new Date().toISOString() });
    if (!updated) throw notFound('Asset');
    return updated;
  }

  /** Deletes the record, its bytes and its cached derivatives. False when it did not exist. */
  async function remove(workspaceId: string, id: string): Promise<boolean> {
    const record = assets(workspaceId).find(id);
    if (!record) return false;
    keys.delete(record.key); // stop serving first
    await assets(workspaceId).remove(id);
    await rm(filePathOf(workspaceId, id), { force: true });
    await imageCache.removeKey(record.key);
    return true;
  }

  /** Resolves a public serve key to its record and file; undefined for malformed or unknown keys. */
  function byKey(key: string): { record: AssetRecord; path: string } | undefined {
    if (!isAssetKey(key)) return undefined;
    const ref = keys.get(key);
    const record = ref && assets(ref.workspaceId).find(ref.id);
    return record && { record, path: filePathOf(ref.workspaceId, record.id) };
  }

  /** Exact: summed from the records, which are written only once the bytes are in place. */
  function usage(workspaceId: string): Usage {
    const rows = assets(workspaceId).all();
    return { assets: rows.length, bytes: rows.reduce((n, a) => n + a.size, 0) };
  }

  /** Call when a workspace is dropped: forgets its keys and cached derivatives (its files go with its dir). */
  async function forgetWorkspace(workspaceId: string): Promise<void> {
    for (const [key, ref] of keys) {
      if (ref.workspaceId !== workspaceId) continue;
      keys.delete(key);
      await imageCache.removeKey(key);
    }
  }

  return {
    upload,
    uploadWithGrant,
    createFromFile,
    list: (workspaceId: string, query: ListAssetsQuery) => listAssetRecords(assets(workspaceId).all(), query),
    get,
    update,
    remove,
    filePath: (workspaceId: string, id: string) => filePathOf(workspaceId, get(workspaceId, id).id),
    byKey,
    usage,
    forgetWorkspace,
    grants,
    imageCache,
  };
}

export type AssetService = ReturnType<typeof createAssetService>;

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
