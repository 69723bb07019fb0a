// Schema versions of the stored data. A migration runs once, in order, before the server serves.
import type { Store } from '../types.js';
import { backfillKeyServices } from './001-backfill-key-services.js';
import { assetSearchText } from './002-asset-search-text.js';
import type { Migration } from './migration.js';

export const migrations: Migration[] = [backfillKeyServices, assetSearchText];
export const SCHEMA_VERSION = migrations.length;

export async function runMigrations(store: Store): Promise<void> {
  const current = await store.schemaVersion();
  if (current > SCHEMA_VERSION) throw new Error(`This data was written by a newer Folio (schema ${current})`);
  for (const migration of migrations.filter((m) => m.version > current)) {
    await migration.up(store);
    await store.setSchemaVersion(migration.version);
  }
}
