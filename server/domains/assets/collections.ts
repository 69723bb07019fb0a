import { defineCollection } from '../../store/types.js';
import type { AssetRecord } from './schema.js';

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

/** Where an asset's bytes live in the blob store. */
export const assetBlobKey = (workspaceId: string, assetId: string) =>
  `workspaces/${workspaceId}/files/${assetId}`;

/** What `search` looks through: names and tags, lower-cased once at write time. */
export const searchTextOf = (a: Pick<AssetRecord, 'displayName' | 'filename' | 'tags'>) =>
  [a.displayName, a.filename, ...a.tags].join('\n').toLowerCase();
