import { assetsCollection, searchTextOf } from '../../capabilities/assets/collections.js';
import type { Migration } from './index.js';

/** Asset search became a store query on one lower-cased field; assets stored before it get that field. */
export const assetSearchText: Migration = {
  version: 2,
  name: 'asset-search-text',
  async up(store) {
    for (const workspaceId of await store.workspacesWith(assetsCollection)) {
      const assets = store.collection(assetsCollection, workspaceId);
      for (const asset of await assets.all({ searchText: null }))
        await assets.update(asset.id, { searchText: searchTextOf(asset) });
    }
  },
};
