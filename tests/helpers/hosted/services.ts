// The hosted services for tests: one PostgreSQL and one Swift (S3 API) per test run, started by the first worker
// that asks (under a lock in the run's state directory) and stopped by global-setup.ts's teardown. Each test
// store gets its own database and its own key prefix in one bucket.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { inject } from 'vitest';
import { startPostgres } from '../../../scripts/hosted/postgres.js';
import { startSwift } from '../../../scripts/hosted/swift.js';
import type { S3Settings } from '../../../server/store/s3/client.js';

export type ServiceState = {
  postgres: { url: string; dir: string; startMs: number };
  swift: {
    endpoint: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    dir: string;
    pids: number[];
    startMs: number;
  };
};

export const TEST_BUCKET = 'folio-tests';

let state: Promise<ServiceState> | undefined;

/** Starts PostgreSQL and Swift once for the whole run; every worker gets the same ones. */
export function hostedServices(): Promise<ServiceState> {
  state ??= startOnce();
  return state;
}

async function startOnce(): Promise<ServiceState> {
  const dir = inject('hostedStateDir');
  const file = join(dir, 'services.json');
  await mkdir(dir, { recursive: true });
  const release = await lockfile.lock(dir, {
    retries: { retries: 1200, minTimeout: 50, maxTimeout: 100 },
    stale: 60_000,
  });
  try {
    const existing = await readFile(file, 'utf8').then(
      (t) => JSON.parse(t) as ServiceState,
      () => undefined,
    );
    if (existing) return existing;
    const [postgres, swift] = await Promise.all([startPostgres({ fsync: false }), startSwift()]);
    const started: ServiceState = {
      postgres: { url: postgres.url, dir: postgres.dir, startMs: postgres.startMs },
      swift: {
        endpoint: swift.endpoint,
        region: swift.region,
        accessKeyId: swift.accessKeyId,
        secretAccessKey: swift.secretAccessKey,
        dir: swift.dir,
        pids: swift.pids,
        startMs: swift.startMs,
      },
    };
    await writeFile(file, JSON.stringify(started));
    return started;
  } finally {
    await release();
  }
}

/** A new, empty database on the run's PostgreSQL; `drop` removes it (closing whatever still uses it). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { postgres } = await hostedServices();
  const name = `folio_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = postgres.url.replace(/\/postgres$/, `/${name}`);
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}

/** S3 settings for the run's Swift, under a prefix of their own. */
export async function testS3Settings(): Promise<S3Settings> {
  const { swift } = await hostedServices();
  return {
    endpoint: swift.endpoint,
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    bucket: TEST_BUCKET,
    forcePathStyle: true,
    prefix: `t-${randomBytes(6).toString('hex')}`,
  };
}
