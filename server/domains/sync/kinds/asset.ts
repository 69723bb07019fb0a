// Assets sync their metadata as a record and their bytes as a content-addressed blob. The bytes of an asset id never
// change, so a later version can only change `displayName` and `tags`; the receiving instance inspects the bytes
// itself (type, size, media facts) rather than trust what it is told.
import { z } from 'zod';
import { AssetType, DisplayName, Tags } from '../../assets/schema.js';
import type { AssetService } from '../../assets/service.js';
import type { UploadService } from '../../uploads/service.js';
import { Sha256 } from '../protocol/schema.js';
import { type KindAdapter, MissingBlob, type Payload, pickFields, Timestamp } from './types.js';

export const SyncedAsset = z.object({
  displayName: DisplayName,
  filename: z.string().min(1).max(255),
  tags: Tags,
  type: AssetType,
  contentType: z.string().min(1).max(200),
  size: z.number().int().min(0),
  sha256: Sha256,
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  duration: z.number().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
type SyncedAsset = z.infer<typeof SyncedAsset>;

const FIELDS = Object.keys(SyncedAsset.shape) as Array<keyof SyncedAsset>;

export function assetAdapter(
  assets: AssetService,
  uploads: Pick<UploadService, 'createFromFile'>,
): KindAdapter {
  return {
    kind: 'asset',
    collection: assets.collection,
    service: 'assets',
    schema: SyncedAsset as unknown as z.ZodType<Payload>,
    payload: (row) => pickFields(row, FIELDS),
    hashed: ({ updatedAt: _, ...fields }) => fields,
    ready: () => true,
    blobs: (p) => [{ sha256: String(p.sha256), size: Number(p.size) }],
    blobKey: (workspaceId, row) => assets.blobKeyOf(workspaceId, row.id),
    async put(workspaceId, id, payload, ifSeq, { blobs }) {
      const p = payload as SyncedAsset;
      if (ifSeq !== 0)
        return assets.updateIf(
          workspaceId,
          id,
          { displayName: p.displayName, tags: p.tags },
          { seq: ifSeq, updatedAt: p.updatedAt },
        );
      const file = await blobs.file({ sha256: p.sha256, size: p.size });
      if (!file) throw new MissingBlob(p.sha256);
      try {
        return await uploads.createFromFile(workspaceId, {
          ...(file.bytes !== undefined ? { bytes: file.bytes } : { path: file.path }),
          id,
          filename: p.filename,
          contentType: p.contentType,
          displayName: p.displayName,
          tags: p.tags,
          sha256: p.sha256,
          createdAt: p.createdAt,
          updatedAt: p.updatedAt,
          together: true,
        });
      } catch (error) {
        if ((error as Error).name === 'StoreConflict') return undefined; // made meanwhile: not ours to overwrite
        throw error;
      } finally {
        await file.release();
      }
    },
    remove: (workspaceId, id, ifSeq) => assets.remove(workspaceId, id, { ifSeq }),
  };
}
