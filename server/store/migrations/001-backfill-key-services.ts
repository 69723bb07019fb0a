import { apiKeys } from '../../domains/keys/collections.js';
import type { Migration } from './index.js';

/** Keys created before services existed get assets and transcription, nothing else. */
export const backfillKeyServices: Migration = {
  version: 1,
  name: 'backfill-key-services',
  async up(store) {
    const keys = store.instance(apiKeys);
    for (const key of await keys.all({ services: null })) {
      await keys.update(key.id, { services: ['assets', 'transcription'] });
    }
  },
};
