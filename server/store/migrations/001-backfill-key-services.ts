import type { Migration } from './index.js';

/** Spec §5: keys created before services existed get assets and transcription, nothing else. */
export const backfillKeyServices: Migration = {
  version: 1,
  name: 'backfill-key-services',
  async up(store) {
    const keys = store.instance<{ id: string; services?: string[] }>('api-keys');
    for (const key of keys.filter((k) => !Array.isArray(k.services))) {
      await keys.update(key.id, { services: ['assets', 'transcription'] });
    }
  },
};
