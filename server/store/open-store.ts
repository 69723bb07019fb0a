// Opens the store the configuration names and brings its data to the current schema. The desktop default is the
// file backend; with a database URL it is PostgreSQL, with blobs in an S3 bucket or in files under the data
// directory (a volume every node mounts). pg, Kysely and the S3 client are imported only then, so the desktop
// app never loads them.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createFileBlobs } from './file/blobs.js';
import type { FaultInjector } from './file/faults.js';
import { openFileStore } from './file/store.js';
import { runMigrations } from './migrations/index.js';
import { createScopeGate } from './scope-gate.js';
import type { BlobStore, Store } from './types.js';

export type StoreConfig = Pick<Config, 'dataDir' | 'fsync'> &
  Partial<Pick<Config, 'database' | 's3' | 'nodeId'>> & {
    log?: Logger;
    /** Tests only (file backend): injected write faults, a small compaction threshold. */
    faults?: FaultInjector;
    compactAtBytes?: number;
    compactionRetryMs?: number;
  };

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.database) return openHostedStore(config, config.database);
  const { dataDir, fsync, log, faults, compactAtBytes, compactionRetryMs } = config;
  const store = await openFileStore({ dataDir, fsync, log, faults, compactAtBytes, compactionRetryMs });
  try {
    await runMigrations(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

async function openHostedStore(
  config: StoreConfig,
  database: NonNullable<Config['database']>,
): Promise<Store> {
  const tmpDir = await nodeScratch(config.dataDir, config.nodeId ?? 'node');
  let blobs: BlobStore;
  let blobBackend: string;
  if (config.s3) {
    const { openS3Blobs } = await import('./s3/blobs.js');
    blobs = await openS3Blobs({
      ...config.s3,
      forcePathStyle: config.s3.forcePathStyle ?? Boolean(config.s3.endpoint),
      tmpDir,
    });
    blobBackend = 's3';
  } else {
    blobs = createFileBlobs({ root: config.dataDir, tmpDir, fsync: config.fsync, gate: createScopeGate() });
    blobBackend = 'files';
  }
  const { openPostgresStore } = await import('./postgres/store.js');
  const store = await openPostgresStore({
    url: database.url,
    poolSize: database.poolSize,
    blobs,
    blobBackend,
    tmpDir,
    log: config.log,
  });
  try {
    await store.exclusive(() => runMigrations(store));
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

const STALE_SCRATCH_MS = 24 * 3600_000;

/**
 * This node's scratch directory, `tmp/<node id>` under the data directory (on the blob volume when blobs are
 * files, so finished uploads move in by rename), emptied at start. Other nodes' directories are left alone
 * unless nothing has touched them for a day (a node that is gone).
 */
async function nodeScratch(dataDir: string, nodeId: string): Promise<string> {
  const root = join(dataDir, 'tmp');
  const mine = join(root, nodeId);
  await rm(mine, { recursive: true, force: true });
  await mkdir(mine, { recursive: true });
  for (const name of await readdir(root).catch(() => [])) {
    const path = join(root, name);
    const info = await stat(path).catch(() => undefined);
    if (path !== mine && info && Date.now() - info.mtimeMs > STALE_SCRATCH_MS)
      await rm(path, { recursive: true, force: true });
  }
  return mine;
}
