// Why the PostgreSQL backend's GIN indexes keep no pending list (server/store/postgres/tables.ts): a table shaped
// as the assets' search is (a trigram GIN index on the folded search text, a GIN index on the tags, the list's
// order index) is filled by `--rows` one-row inserts, as uploads commit, once with `fastupdate = on` (PostgreSQL's
// default) and once with it off; then a rare search, one matching nothing and a common one are timed
// (ms p50 / p99 of 100 each), on the fresh table and again after VACUUM ANALYZE (what merges a pending list).
//   node --import tsx bench/postgres-search-index.ts [--rows 100000]
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgres } from '../scripts/hosted/postgres.js';

const { values } = parseArgs({ options: { rows: { type: 'string' } } });
const ROWS = Number(values.rows ?? 100_000);
const WORDS = ['report', 'invoice', 'photo', 'meeting', 'draft', 'summary', 'scan', 'memo'];
const nameOf = (i: number) => `${WORDS[i % WORDS.length]} ${i}.txt`;

const server = await startPostgres({ fsync: true });
const client = new pg.Client({ connectionString: server.url });
await client.connect();

async function fill(fastupdate: boolean): Promise<number> {
  const option = fastupdate ? 'on' : 'off';
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await client.query('DROP TABLE IF EXISTS assets');
  await client.query(
    'CREATE TABLE assets (ws text, id text, search text, tags text[], created text, PRIMARY KEY (ws, id))',
  );
  await client.query(`CREATE INDEX assets_tags ON assets USING gin (tags) WITH (fastupdate = ${option})`);
  await client.query(
    `CREATE INDEX assets_search ON assets USING gin (lower(search) gin_trgm_ops) WITH (fastupdate = ${option})`,
  );
  await client.query('CREATE INDEX assets_created ON assets (ws, created, id)');
  const began = performance.now();
  for (let i = 0; i < ROWS; i++)
    await client.query('INSERT INTO assets VALUES ($1, $2, $3, $4, $5)', [
      'ws',
      `a${i}`,
      `${nameOf(i)}\n${nameOf(i)}\nt${i % 10}\nu${i}`,
      [`t${i % 10}`, `u${i}`],
      new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    ]);
  return (performance.now() - began) / 1000;
}

async function timed(sql: string, parameters: unknown[]): Promise<string> {
  const ms: number[] = [];
  for (let n = 0; n < 100; n++) {
    const began = performance.now();
    await client.query(sql, parameters);
    ms.push(performance.now() - began);
  }
  ms.sort((a, b) => a - b);
  return `${ms[50]!.toFixed(1)} / ${ms[98]!.toFixed(1)}`;
}

async function reads(): Promise<string[]> {
  const rare = ROWS - 4242;
  const search = `SELECT * FROM assets WHERE ws = 'ws' AND lower(search) LIKE $1 ORDER BY created DESC, id DESC LIMIT 51`;
  return [
    await timed(search, [`%${nameOf(rare)}%`]),
    await timed(search, ['%no such words%']),
    await timed(search, ['%report%']),
  ];
}

console.log(`${ROWS.toLocaleString('en')} one-row inserts, then 100 of each read (ms p50 / p99)`);
console.log(
  '| fastupdate | inserts (s) | when | search rare | search none | search common | tag rare | search index |',
);
console.log('|---|---|---|---|---|---|---|');
for (const fastupdate of [true, false]) {
  const seconds = await fill(fastupdate);
  for (const when of ['fresh', 'after VACUUM ANALYZE']) {
    if (when !== 'fresh') await client.query('VACUUM ANALYZE assets');
    const size = Number((await client.query(`SELECT pg_relation_size('assets_search') AS s`)).rows[0].s);
    console.log(
      `| ${fastupdate ? 'on' : 'off'} | ${seconds.toFixed(1)} | ${when} | ${(await reads()).join(' | ')} | ${(size / 1e6).toFixed(0)} MB |`,
    );
  }
}
await client.end();
await server.stop();
