// Which backend the configuration opens: files by default (without loading pg or the S3 client), PostgreSQL with
// blobs in S3 or in files when a database URL is given; a drop on one node refuses blob writes on another.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromProcess, parseConfig } from '../../../server/config.js';
import { ScopeGone } from '../../../server/store/errors.js';
import { SCHEMA_VERSION } from '../../../server/store/migrations/index.js';
import { openStore } from '../../../server/store/open-store.js';
import type { Store } from '../../../server/store/types.js';
import { createTestDatabase, testS3Settings } from '../../helpers/hosted/services.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'folio-open-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function opened(store: Store) {
  cleanups.push(() => store.close());
  return store;
}

describe('openStore', () => {
  it('opens the file backend by default and never loads pg or the S3 client', async () => {
    const dataDir = await tempDir();
    const script = `
      const { openStore } = await import('./server/store/open-store.ts');
      const store = await openStore({ dataDir: ${JSON.stringify(dataDir)}, fsync: false });
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => /node_modules\\/(pg|kysely|@aws-sdk)\\//.test(p));
      console.log(JSON.stringify({ backend: store.backend, loaded }));
      await store.close();`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT },
    );
    expect(JSON.parse(stdout)).toEqual({ backend: 'files', loaded: [] });
  });

  it('opens PostgreSQL with S3 blobs and runs the data migrations', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const dataDir = await tempDir();
    const config = parseConfig({
      dataDir,
      fsync: false,
      database: { url: database.url },
      s3: await testS3Settings(),
      nodeId: 'node-a',
    });
    const store = await opened(await openStore(config));
    expect(store.backend).toBe('postgres+s3');
    expect(await store.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(store.tmpDir).toBe(join(dataDir, 'tmp', 'node-a'));
    await store.blobs.put('workspaces/ws_1/files/a', Buffer.from('abc'));
    expect(store.blobs.pathOf('workspaces/ws_1/files/a')).toBeUndefined();
  });

  it('keeps blobs as files beside PostgreSQL, and a drop on one node refuses writes on another', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const dataDir = await tempDir();
    const nodeA = await opened(
      await openStore({ dataDir, fsync: false, database: { url: database.url, poolSize: 4 }, nodeId: 'a' }),
    );
    const nodeB = await opened(
      await openStore({ dataDir, fsync: false, database: { url: database.url, poolSize: 4 }, nodeId: 'b' }),
    );
    expect(nodeB.backend).toBe('postgres+files');
    await nodeB.blobs.put('workspaces/ws_x/files/one', Buffer.from('1'));
    expect(nodeA.blobs.pathOf('workspaces/ws_x/files/one')).toBe(join(dataDir, 'workspaces/ws_x/files/one'));
    await nodeA.dropWorkspace('ws_x');
    expect(await nodeB.blobs.stat('workspaces/ws_x/files/one')).toBeUndefined();
    await expect(nodeB.blobs.put('workspaces/ws_x/files/two', Buffer.from('2'))).rejects.toBeInstanceOf(
      ScopeGone,
    );
  });
});

describe('hosted configuration', () => {
  it('reads FOLIO_DATABASE_URL and FOLIO_S3_* from the environment', () => {
    const config = configFromProcess([], {
      FOLIO_DATA_DIR: '/tmp/x',
      FOLIO_DATABASE_URL: 'postgres://folio@db/folio',
      FOLIO_S3_BUCKET: 'folio-assets',
      FOLIO_S3_ENDPOINT: 'http://127.0.0.1:9000',
      FOLIO_S3_ACCESS_KEY_ID: 'id',
      FOLIO_S3_SECRET_ACCESS_KEY: 'secret',
      FOLIO_S3_FORCE_PATH_STYLE: 'true',
      FOLIO_NODE_ID: 'web-2',
    });
    expect(config.database).toEqual({ url: 'postgres://folio@db/folio', poolSize: 10 });
    expect(config.s3).toMatchObject({
      bucket: 'folio-assets',
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'id',
    });
    expect(config.nodeId).toBe('web-2');
  });

  it('keeps the desktop default when nothing hosted is configured', () => {
    const config = configFromProcess([], { FOLIO_DATA_DIR: '/tmp/x' });
    expect(config.database).toBeUndefined();
    expect(config.s3).toBeUndefined();
  });

  it('refuses a bucket without a database, and a bad path-style flag', () => {
    expect(() =>
      configFromProcess([], { FOLIO_DATA_DIR: '/tmp/x', FOLIO_S3_BUCKET: 'folio-assets' }),
    ).toThrow(/FOLIO_DATABASE_URL/);
    expect(() =>
      configFromProcess([], {
        FOLIO_DATA_DIR: '/tmp/x',
        FOLIO_DATABASE_URL: 'postgres://db/folio',
        FOLIO_S3_BUCKET: 'b-1',
        FOLIO_S3_FORCE_PATH_STYLE: 'maybe',
      }),
    ).toThrow();
    expect(() =>
      configFromProcess([], { FOLIO_DATA_DIR: '/tmp/x', FOLIO_DATABASE_URL: 'mysql://db' }),
    ).toThrow(/postgres/);
  });
});
