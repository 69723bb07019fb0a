// Opens the store the configuration names and brings its data to the current schema.
import type { FaultInjector } from './file/faults.js';
import { openFileStore } from './file/store.js';
import { runMigrations } from './migrations/index.js';
import type { Store } from './types.js';

export type StoreConfig = {
  dataDir: string;
  fsync: boolean;
  log?: (line: string) => void;
  /** Tests only (file backend): injected write faults, a small compaction threshold. */
  faults?: FaultInjector;
  compactAtBytes?: number;
  compactionRetryMs?: number;
};

export async function openStore(config: StoreConfig): Promise<Store> {
  const store = await openFileStore(config);
  try {
    await runMigrations(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
