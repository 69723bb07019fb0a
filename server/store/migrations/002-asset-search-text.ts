import { defineCollection } from '../types.js';
import type { Migration } from './migration.js';

type AssetRow = {
  id: string;
  key: string;
  type: string;
  displayName: string;
  filename: string;
  tags: string[];
  searchText?: string | null;
  createdAt: string;
  size: number;
  sha256: string;
};

/** The assets collection as it was declared when search moved into the store. */
const assets = defineCollection<AssetRow>({
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

/** What search looks through: names and tags, lower-cased once. */
const searchTextOf = (a: AssetRow) => [a.displayName, a.filename, ...a.tags].join('\n').toLowerCase();

/** Asset search became a store query on one lower-cased field; assets stored before it get that field. */
export const assetSearchText: Migration = {
  version: 2,
  name: 'asset-search-text',
  async up(store) {
    for (const workspaceId of await store.workspacesWith(assets)) {
      const rows = store.collection(assets, workspaceId);
      const stale = await rows.all({ searchText: null });
      // Together, so the store commits them in a few batches rather than one write each.
      await Promise.all(stale.map((asset) => rows.update(asset.id, { searchText: searchTextOf(asset) })));
    }
  },
};
