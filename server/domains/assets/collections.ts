import { defineCollection } from '../../store/types.js';
import type { AssetRecord, UploadGrantRecord } from './schema.js';

export const assetsCollection = defineCollection<AssetRecord>({
  name: 'assets',
  scope: 'workspace',
  fields: {
    type: 'text',
    tags: 'text[]',
    searchText: 'text',
    createdAt: 'text',
    size: 'number',
    sha256: 'text',
  },
  unique: ['key'],
  search: ['searchText'],
});

export const uploadGrants = defineCollection<UploadGrantRecord>({
  name: 'upload-grants',
  scope: 'workspace',
  fields: { expiresAt: 'text', usedAt: 'text', claimedAt: 'text', createdAt: 'text' },
  unique: ['hash'],
});

/** Where an asset's bytes live in the blob store. */
export const assetBlobKey = (workspaceId: string, assetId: string) =>
  `workspaces/${workspaceId}/files/${assetId}`;

/** What `search` looks through: names and tags, lower-cased once at write time. */
export const searchTextOf = (a: Pick<AssetRecord, 'displayName' | 'filename' | 'tags'>) =>
  [a.displayName, a.filename, ...a.tags].join('\n').toLowerCase();
