// Opens the store the configuration names and brings its data to the current schema.
import { openFileStore } from './file/store.js';
import { runMigrations } from './migrations/index.js';
import type { Store } from './types.js';

export type StoreConfig = { dataDir: string; fsync: boolean; log?: (line: string) => void };

export async function openStore(config: StoreConfig): Promise<Store> {
  const store = await openFileStore({ dataDir: config.dataDir, fsync: config.fsync, log: config.log });
  try {
    await runMigrations(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
