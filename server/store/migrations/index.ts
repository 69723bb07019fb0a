// Schema versions of the data directory. A migration runs once, in order, before the server serves.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store.js';
import { backfillKeyServices } from './001-backfill-key-services.js';

export type Migration = { version: number; name: string; up(store: Store): Promise<void> };

export const migrations: Migration[] = [backfillKeyServices];
export const SCHEMA_VERSION = migrations.length;

type Meta = { schemaVersion: number };

export async function runMigrations(store: Omit<Store, never>): Promise<void> {
  const path = join(store.dataDir, 'meta.json');
  const meta: Meta = await readFile(path, 'utf8').then(JSON.parse, () => ({ schemaVersion: 0 }));
  if (meta.schemaVersion > SCHEMA_VERSION)
    throw new Error(`${store.dataDir} was written by a newer Folio (schema ${meta.schemaVersion})`);
  for (const migration of migrations.filter((m) => m.version > meta.schemaVersion)) {
    await migration.up(store as Store);
    await writeMeta(path, { schemaVersion: migration.version });
  }
  if (meta.schemaVersion === 0 && migrations.length === 0) await writeMeta(path, { schemaVersion: 0 });
}

async function writeMeta(path: string, meta: Meta): Promise<void> {
  await writeFile(`${path}.tmp`, JSON.stringify(meta));
  await rename(`${path}.tmp`, path);
}
