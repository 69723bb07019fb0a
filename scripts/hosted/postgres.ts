// A throw-away PostgreSQL from the system's packages (Debian: `apt-get install postgresql`) for tests, benches
// and a local hosted run: initdb into a temp directory, pg_ctl start on a free port, run as the `postgres` user
// when we are root (initdb refuses root). `npx tsx scripts/hosted/postgres.ts` starts one and prints its URL.
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, giveTo, isRoot, runAs } from './processes.js';

export type PostgresServer = {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  dir: string;
  startMs: number;
  stop(): Promise<void>;
};

export type PostgresOptions = {
  /** Durable commits (benches); tests turn fsync off. */
  fsync?: boolean;
  maxConnections?: number;
  /** Where to put the cluster; a new temp directory by default. */
  dir?: string;
};

const USER = 'postgres';

/** The newest installed server's bin directory (/usr/lib/postgresql/<major>/bin on Debian). */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
    : [];
  const newest = majors.sort((a, b) => Number(a) - Number(b)).pop();
  if (!newest) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
  return join(root, newest, 'bin');
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const started = performance.now();
  const bin = postgresBin();
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'folio-pg-')));
  await giveTo(USER, dir);
  const data = join(dir, 'data');
  await runAs(USER, join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections ?? 300}`,
    ...(options.fsync === false
      ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']
      : []),
  ];
  await runAs(USER, join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    settings.join(' '),
    'start',
  ]);
  const startMs = performance.now() - started;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    startMs,
    async stop() {
      await runAs(USER, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Stops a server another process started, from what `startPostgres` returned. */
export async function stopPostgresAt(dir: string): Promise<void> {
  await runAs(USER, join(postgresBin(), 'pg_ctl'), [
    '-D',
    join(dir, 'data'),
    '-m',
    'immediate',
    '-w',
    'stop',
  ]).catch(() => {});
  await rm(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startPostgres({ fsync: !process.argv.includes('--no-fsync') });
  console.log(`PostgreSQL ${isRoot() ? `(as ${USER}) ` : ''}started in ${server.startMs.toFixed(0)} ms`);
  console.log(`FOLIO_DATABASE_URL=${server.url}`);
  const stop = () => server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
