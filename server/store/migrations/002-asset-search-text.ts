import { assetsCollection, searchTextOf } from '../../domains/assets/collections.js';
import type { Migration } from './index.js';

/** Asset search became a store query on one lower-cased field; assets stored before it get that field. */
export const assetSearchText: Migration = {
  version: 2,
  name: 'asset-search-text',
  async up(store) {
    for (const workspaceId of await store.workspacesWith(assetsCollection)) {
      const assets = store.collection(assetsCollection, workspaceId);
      const stale = await assets.all({ searchText: null });
      // Together, so the store commits them in a few batches rather than one write each.
      await Promise.all(stale.map((asset) => assets.update(asset.id, { searchText: searchTextOf(asset) })));
    }
  },
};
