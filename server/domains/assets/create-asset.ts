/** Making an asset: its bytes and its record written as one unit of work, so neither is ever left without the other. */
import { rm } from 'node:fs/promises';
import { StoreConflict } from '../../store/errors.js';
import { newId } from '../../store/ids.js';
import type { Store, UnitOfWork } from '../../store/types.js';
import { createUnitBatcher } from '../../store/unit-batcher.js';
import { newAssetKey } from './asset-key.js';
import { assetBlobKey, assetsCollection, searchTextOf } from './collections.js';
import { type FileRules, type IncomingFile, type InspectedFile, inspectFile } from './ingest/inspect-file.js';
import type { AssetRecord } from './schema.js';

export interface NewAssetMeta {
  displayName?: string;
  tags?: string[];
}

export type AssetMeta = NewAssetMeta & {
  /** A fixed id, so a retried step finds the asset it made before. */
  id?: string;
  /** Kept from another instance (sync), so the copy lists where the original does. */
  createdAt?: string;
  updatedAt?: string;
};

/** More writes that commit with the asset, or not at all (a grant's use). */
export type Along = (tx: UnitOfWork, record: AssetRecord) => Promise<void>;

export type CreateOptions = {
  rules?: FileRules;
  along?: Along;
  /**
   * Commit in one unit with the other creates of the workspace waiting at the time (unit-batcher.ts): for a burst of
   * records that fail only with storage (sync), never with `along`, whose refusal would undo its neighbours.
   */
  together?: boolean;
};

export function createAssetWriter(store: Store) {
  const assets = (workspaceId: string) => store.collection(assetsCollection, workspaceId);
  const batcher = createUnitBatcher(store);

  /** Checks `file` (which this takes ownership of), then moves its bytes into the store with its record. */
  async function create(
    workspaceId: string,
    file: IncomingFile,
    meta: AssetMeta,
    { rules, along, together = false }: CreateOptions = {},
  ): Promise<AssetRecord> {
    if (together && along) throw new Error('A create with writes along commits alone');
    const inspected = await inspectFile(file, rules);
    const record = recordOf(meta.id ?? newId('ast'), file.filename, inspected, meta);
    // A fixed id (a retried step) that exists: its bytes are at this key, so they are not written over.
    if (meta.id && (await assets(workspaceId).get(meta.id))) {
      await drop(file);
      throw new StoreConflict(assetsCollection.name, 'id', meta.id);
    }
    const unitOfWork: Store['unitOfWork'] = together ? batcher.run : (...args) => store.unitOfWork(...args);
    const stored = await unitOfWork(workspaceId, async (tx) => {
      const key = assetBlobKey(workspaceId, record.id);
      await (file.bytes !== undefined ? tx.blobs.put(key, file.bytes) : tx.blobs.putFile(key, file.path));
      const inserted = await tx.collection(assetsCollection).insert(record).catch(takenMeanwhile(meta));
      if (inserted instanceof StoreConflict) {
        tx.blobs.disown(key); // the bytes at `key` are the other record's now, even if a neighbour fails the unit
        return inserted;
      }
      await along?.(tx, inserted);
      return inserted;
    }).catch(async (error) => {
      await drop(file); // where the bytes never moved in
      throw error;
    });
    if (stored instanceof StoreConflict) throw stored;
    return stored;
  }

  return { create };
}

const drop = (file: IncomingFile) => (file.path ? rm(file.path, { force: true }) : undefined);

/**
 * A fixed id that another request created meanwhile (the same step retried, with the same bytes): that record owns
 * the bytes at its key now, so the unit answers the conflict instead of throwing it (which would delete them).
 */
function takenMeanwhile(meta: AssetMeta) {
  return (error: unknown): StoreConflict => {
    if (meta.id !== undefined && error instanceof StoreConflict && error.field === 'id') return error;
    throw error;
  };
}

function recordOf(id: string, filename: string, inspected: InspectedFile, meta: AssetMeta): AssetRecord {
  const now = meta.createdAt ?? new Date().toISOString();
  const displayName = meta.displayName ?? filename;
  const tags = meta.tags ?? [];
  return {
    id,
    key: newAssetKey(),
    displayName,
    filename,
    tags,
    type: inspected.assetType,
    size: inspected.size,
    contentType: inspected.contentType,
    sha256: inspected.sha256,
    ...(inspected.width ? { width: inspected.width, height: inspected.height } : {}),
    ...(inspected.duration !== undefined ? { duration: inspected.duration } : {}),
    searchText: searchTextOf({ displayName, filename, tags }),
    createdAt: now,
    updatedAt: meta.updatedAt ?? now,
  };
}
