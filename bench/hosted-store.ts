// Store figures at 100k and 1M records, PostgreSQL (hosted) beside the file backend (desktop), both durable (fsync
// on): single-row write latency (one writer, then 10 at once) and list/search latency on one workspace's assets.
// Both stores are prefilled outside the API (PostgreSQL with one INSERT ... SELECT, the file backend by writing its
// snapshot), then measured only through the Store interface the server uses.
//   node --max-old-space-size=8192 --import tsx bench/hosted-store.ts [--sizes 100000,1000000] [--writes 1000]
//   [--reads 100]   (the file backend holds every row in memory: 1M assets need a larger heap)
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgres } from '../scripts/hosted/postgres.js';
import { assetsCollection } from '../server/domains/assets/collections.js';
import type { AssetRecord } from '../server/domains/assets/schema.js';
import { silentLogger } from '../server/log.js';
import { createFileBlobs } from '../server/store/file/blobs.js';
import { openFileStore } from '../server/store/file/store.js';
import { openPostgresStore } from '../server/store/postgres/store.js';
import { createScopeGate } from '../server/store/scope-gate.js';
import type { ListQuery, Store } from '../server/store/types.js';

const { values } = parseArgs({
  options: { sizes: { type: 'string' }, writes: { type: 'string' }, reads: { type: 'string' } },
});
const sizes = (values.sizes ?? '100000,1000000').split(',').map(Number);
const WRITES = Number(values.writes ?? 1000);
const READS = Number(values.reads ?? 100);
const WS = 'ws_bench';
const TYPES = ['image', 'audio', 'video', 'document', 'other'];
const WORDS = ['report', 'invoice', 'photo', 'meeting', 'draft', 'summary', 'scan', 'memo'];

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
function asset(i: number): AssetRecord {
  const name = `${WORDS[i % WORDS.length]} ${i}.bin`;
  const tags = [`tag${i % 10}`, `t${i % 97}`];
  return {
    id: `ast_${String(i).padStart(20, '0')}`,
    key: `k${String(i).padStart(21, '0')}`,
    displayName: name,
    filename: name,
    tags,
    type: TYPES[i % TYPES.length] as AssetRecord['type'],
    size: 1000 + (i % 5000),
    contentType: 'application/octet-stream',
    sha256: '0'.repeat(64),
    searchText: `${name}\n${tags.join('\n')}`.toLowerCase(),
    createdAt: at(i),
    updatedAt: at(i),
  };
}

type Percentiles = { p50: number; p99: number };
const percentiles = (ms: number[]): Percentiles => {
  const sorted = [...ms].sort((a, b) => a - b);
  const pick = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50: pick(50), p99: pick(99) };
};
const fmt = ({ p50, p99 }: Percentiles) => `${p50.toFixed(2)} / ${p99.toFixed(2)}`;

async function timed(n: number, op: (i: number) => Promise<unknown>, concurrency = 1): Promise<Percentiles> {
  const ms: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const start = performance.now();
        await op(i);
        ms.push(performance.now() - start);
      }
    }),
  );
  return percentiles(ms);
}

async function measure(store: Store, size: number): Promise<Record<string, string>> {
  const assets = store.collection(assetsCollection, WS);
  let fresh = size;
  const single = await timed(WRITES, () => assets.insert(asset(fresh++)));
  const ten = await timed(WRITES, () => assets.insert(asset(fresh++)), 10);
  const page = (query: Partial<ListQuery<AssetRecord>>) => () => assets.list({ limit: 50, ...query });
  const deep = async () => {
    let cursor: string | undefined;
    for (let p = 0; p < 20; p++) cursor = (await assets.list({ limit: 50, cursor })).nextCursor ?? undefined;
    return cursor;
  };
  const deepCursor = await deep();
  return {
    'insert, 1 writer': fmt(single),
    'insert, 10 at once': fmt(ten),
    'list newest 50': fmt(await timed(READS, page({}))),
    'list page 21 (cursor)': fmt(await timed(READS, page({ cursor: deepCursor }))),
    'type = audio': fmt(await timed(READS, page({ where: { type: 'audio' } }))),
    'tags hasAll [t42]': fmt(await timed(READS, page({ where: { tags: { hasAll: ['t42'] } } }))),
    'search "report" (1 in 8)': fmt(
      await timed(READS, page({ search: { text: 'report', fields: ['searchText'] } })),
    ),
    'search one file name (rare)': fmt(
      await timed(READS, page({ search: { text: asset(size - 7).filename, fields: ['searchText'] } })),
    ),
  };
}

async function postgresRun(url: string, size: number, dir: string) {
  const blobs = createFileBlobs({ root: dir, tmpDir: dir, fsync: true, gate: createScopeGate() });
  const store = await openPostgresStore({
    url,
    blobs,
    blobBackend: 'files',
    tmpDir: dir,
    poolSize: 12,
    log: silentLogger,
  });
  await store.collection(assetsCollection, WS).count(); // makes the table and its indexes
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  await client.query(`INSERT INTO folio_workspaces (id) VALUES ('${WS}') ON CONFLICT DO NOTHING`);
  const batch = 50_000;
  for (let from = 0; from < size; from += batch) {
    const rows = Array.from({ length: Math.min(batch, size - from) }, (_, k) =>
      JSON.stringify(asset(from + k)),
    );
    await client.query(
      `INSERT INTO "c_assets" (workspace_id, id, doc) SELECT $1, d->>'id', d FROM unnest($2::jsonb[]) AS d`,
      [WS, rows],
    );
  }
  await client.query('ANALYZE "c_assets"');
  const fillS = (performance.now() - started) / 1000;
  const { rows } = await client.query<{ bytes: string }>(
    `SELECT pg_total_relation_size('"c_assets"') AS bytes`,
  );
  await client.end();
  const figures = await measure(store, size);
  await store.close();
  return {
    figures,
    note: `prefill ${fillS.toFixed(0)} s, table + indexes ${(Number(rows[0]!.bytes) / 2 ** 20).toFixed(0)} MiB`,
  };
}

async function fileRun(size: number, dir: string) {
  const dbDir = join(dir, 'workspaces', WS, 'db');
  await mkdir(dbDir, { recursive: true });
  const out = createWriteStream(join(dbDir, 'assets.json'));
  out.write('{"rows":[');
  for (let i = 0; i < size; i++) out.write(`${i ? ',' : ''}${JSON.stringify(asset(i))}`);
  await new Promise((resolve) => out.end(']}', () => resolve(undefined)));
  const started = performance.now();
  const store = await openFileStore({ dataDir: dir, fsync: true, log: silentLogger });
  await store.collection(assetsCollection, WS).count();
  const loadS = (performance.now() - started) / 1000;
  const figures = await measure(store, size);
  const rss = process.memoryUsage().rss / 2 ** 20;
  await store.close();
  return { figures, note: `start-up load ${loadS.toFixed(1)} s, process RSS ${rss.toFixed(0)} MiB` };
}

const server = await startPostgres({ fsync: true });
console.log(
  `PostgreSQL 15 (fsync on) started in ${server.startMs.toFixed(0)} ms; ${WRITES} writes, ${READS} reads per row; ms p50 / p99`,
);
try {
  for (const size of sizes) {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE bench_${size}`);
    await admin.end();
    const pgDir = await mkdtemp(join(tmpdir(), 'folio-bench-pg-'));
    const fileDir = await mkdtemp(join(tmpdir(), 'folio-bench-files-'));
    const hosted = await postgresRun(server.url.replace(/\/postgres$/, `/bench_${size}`), size, pgDir);
    const files = await fileRun(size, fileDir);
    console.log(`\n${size.toLocaleString('en')} assets in one workspace | PostgreSQL | file backend`);
    console.log('|---|---|---|');
    for (const name of Object.keys(hosted.figures))
      console.log(`| ${name} | ${hosted.figures[name]} | ${files.figures[name]} |`);
    console.log(`| notes | ${hosted.note} | ${files.note} |`);
    await rm(pgDir, { recursive: true, force: true });
    await rm(fileDir, { recursive: true, force: true });
  }
} finally {
  await server.stop();
}
