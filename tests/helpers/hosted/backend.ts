// Which backend the test servers use: the file backend by default; with FOLIO_TEST_BACKEND=hosted, PostgreSQL and
// S3 (Swift) from services.ts, one database and one key prefix per data directory, so a test that restarts a
// server on the same data directory gets the same records and blobs back.
import { type ConfigInput, parseConfig } from '../../../server/config.js';
import { openStore } from '../../../server/store/open-store.js';
import { createTestDatabase, testS3Settings } from './services.js';

export const hostedTests = process.env.FOLIO_TEST_BACKEND === 'hosted';

const byDataDir = new Map<string, Promise<{ config: Partial<ConfigInput>; drop(): Promise<void> }>>();

/** Config to merge into a test server's: nothing for the file backend, database + s3 for the hosted one. */
export async function testBackendFor(dataDir: string): Promise<Partial<ConfigInput>> {
  if (!hostedTests) return {};
  let backend = byDataDir.get(dataDir);
  if (!backend) {
    backend = (async () => {
      const database = await createTestDatabase();
      return {
        config: { database: { url: database.url, poolSize: 5 }, s3: await testS3Settings() },
        drop: database.drop,
      };
    })();
    byDataDir.set(dataDir, backend);
  }
  return (await backend).config;
}

/** Drops the data directory's database once its server is closed for good. */
export async function releaseTestBackend(dataDir: string): Promise<void> {
  const backend = byDataDir.get(dataDir);
  byDataDir.delete(dataDir);
  await (await backend)?.drop();
}

/** A store alone (no server) on the backend the tests run on; `close` also drops its database. */
export async function openTestStore(dataDir: string) {
  const config = parseConfig({ dataDir, fsync: false, ...(await testBackendFor(dataDir)) });
  const store = await openStore(config);
  return {
    store,
    async close() {
      await store.close();
      await releaseTestBackend(dataDir);
    },
  };
}
