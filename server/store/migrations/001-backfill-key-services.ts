import { defineCollection } from '../types.js';
import type { Migration } from './migration.js';

type KeyRow = {
  id: string;
  hash: string;
  workspaceId: string;
  services?: string[] | null;
  createdAt: string;
};

/** The api-keys collection as it was declared when services came to keys. */
const apiKeys = defineCollection<KeyRow>({
  name: 'api-keys',
  scope: 'instance',
  fields: { workspaceId: 'text', services: 'text[]', createdAt: 'text' },
  unique: ['hash'],
});

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
