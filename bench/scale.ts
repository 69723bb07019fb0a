// A library growing from 0 to 100,000 small assets, as a person would grow it: uploads over HTTP into one
// workspace (8 at once), and at each size the figures bench/README.md "Scale" tabulates: ingest rate, the
// server's RSS and heap, a restart's time to listening, to its first answer and to the end of its background
// work (indexes, sweeps), then the first and a deep page, rare and common searches and tag filters (ms p50 / p99
// over HTTP), and on the file backend the assets journal's size and what the first plain write after the uploads
// costs (the compaction it may set off, and the longest event-loop stall meanwhile). On the file backend and on PostgreSQL + S3 (scripts/hosted/: a real PostgreSQL and
// Swift started as unprivileged users).
// With --add <n>, also `folio add` of n small files in nested folders into a data folder (files per second).
//   node --import tsx bench/scale.ts [--sizes 0,10000,50000,100000] [--backends files,hosted] [--reads 100]
//   [--add 5000]
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import pMap from 'p-map';
import { startPostgres } from '../scripts/hosted/postgres.js';
import { startSwift } from '../scripts/hosted/swift.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    backends: { type: 'string' },
    reads: { type: 'string' },
    add: { type: 'string' },
  },
});
const SIZES = (values.sizes ?? '0,10000,50000,100000').split(',').map(Number);
const BACKENDS = (values.backends ?? 'files,hosted').split(',').filter(Boolean);
const READS = Number(values.reads ?? 100);
const CONCURRENCY = 8;
const WORDS = ['report', 'invoice', 'photo', 'meeting', 'draft', 'summary', 'scan', 'memo'];

type Started = { child: ChildProcess; url: string; listenS: number; firstAnswerS: number; key: string };

/** Starts the server child; resolves once it has answered its first page of assets. */
async function start(config: object, key?: string): Promise<Started> {
  const spawned = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/scale-child.ts', JSON.stringify(config), key ? '' : 'setup'],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened`)));
  });
  const ready = JSON.parse(line) as { url: string; listenS: number; key?: string };
  const bearer = key ?? ready.key!;
  const res = await fetch(`${ready.url}/api/v1/assets?limit=50`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  if (!res.ok) throw new Error(`first page: ${res.status}`);
  await res.arrayBuffer();
  return { child, ...ready, key: bearer, firstAnswerS: (performance.now() - spawned) / 1000 };
}

async function stop({ child }: Started): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

const nameOf = (i: number) => `${WORDS[i % WORDS.length]} ${i}.txt`;

/** Uploads assets `from` .. `to` - 1; resolves to assets per second. */
async function ingest({ url, key }: Started, from: number, to: number): Promise<number> {
  const began = performance.now();
  await pMap(
    Array.from({ length: to - from }, (_, k) => from + k),
    async (i) => {
      const form = new FormData();
      form.append('tags', `t${i % 10},u${i}`);
      form.append('file', new Blob([`asset ${i}\n`]), nameOf(i));
      const res = await fetch(`${url}/api/v1/uploads`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${key}` },
      });
      if (res.status !== 201) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    },
    { concurrency: CONCURRENCY },
  );
  return (to - from) / ((performance.now() - began) / 1000);
}

const pct = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `${at(0.5).toFixed(1)} / ${at(0.99).toFixed(1)}`;
};

/** ms p50 / p99 of `READS` GETs of the asset list with `query`, one at a time. */
async function timedList({ url, key }: Started, query: Record<string, string>): Promise<string> {
  const headers = { authorization: `Bearer ${key}` };
  const ms: number[] = [];
  for (let n = 0; n < READS; n++) {
    const began = performance.now();
    const res = await fetch(`${url}/api/v1/assets?${new URLSearchParams({ limit: '50', ...query })}`, {
      headers,
    });
    if (!res.ok) throw new Error(`list ${JSON.stringify(query)}: ${res.status}`);
    await res.arrayBuffer();
    ms.push(performance.now() - began);
  }
  return pct(ms);
}

async function deepCursor({ url, key }: Started): Promise<string | undefined> {
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const query: URLSearchParams = new URLSearchParams({ limit: '50', ...(cursor && { cursor }) });
    const res: Response = await fetch(`${url}/api/v1/assets?${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    cursor = ((await res.json()) as { nextCursor: string | null }).nextCursor;
    if (!cursor) return undefined;
  }
  return cursor ?? undefined;
}

async function reads(server: Started, size: number): Promise<Record<string, string>> {
  const rare = Math.max(0, size - 4242);
  const cursor = await deepCursor(server);
  return {
    'first page': await timedList(server, {}),
    'page 21 (cursor)': cursor ? await timedList(server, { cursor }) : '-',
    'search common ("report", 1 in 8)': await timedList(server, { search: 'report' }),
    'search rare (one file name)': await timedList(server, { search: nameOf(rare) }),
    'search none': await timedList(server, { search: 'no such words' }),
    'tags common (t3, 1 in 10)': await timedList(server, { tags: 't3' }),
    'tags rare (one asset)': await timedList(server, { tags: `u${rare}` }),
    'tags none': await timedList(server, { tags: 'nothing-here' }),
  };
}

/** The first plain write after the uploads: its time, and the longest event-loop stall around it. */
async function firstPatch(server: Started): Promise<string> {
  const headers = { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' };
  const page = (await (await fetch(`${server.url}/api/v1/assets?limit=1`, { headers })).json()) as {
    data: Array<{ id: string }>;
  };
  if (!page.data[0]) return '-';
  await ask(server.child, 'stall');
  const began = performance.now();
  const res = await fetch(`${server.url}/api/v1/assets/${page.data[0].id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ displayName: `renamed ${Date.now()}` }),
  });
  if (!res.ok) throw new Error(`PATCH: ${res.status}`);
  const ms = performance.now() - began;
  await new Promise((resolve) => setTimeout(resolve, 200)); // a compaction set off by the write runs after it
  const { stallMs } = await ask<{ stallMs: number }>(server.child, 'stall');
  return `${ms.toFixed(0)} ms, stall ${stallMs.toFixed(0)} ms`;
}

/** The assets journal and snapshot of the data folder's one workspace, in MB. */
async function journalOf(dataDir: string): Promise<string> {
  const root = join(dataDir, 'workspaces');
  for (const workspace of await readdir(root).catch(() => [])) {
    const db = join(root, workspace, 'db');
    const size = async (file: string) =>
      ((await stat(join(db, file)).catch(() => undefined))?.size ?? 0) / 1e6;
    const log = await size('assets.log');
    if (log || (await size('assets.json')))
      return `${log.toFixed(1)} MB (snapshot ${(await size('assets.json')).toFixed(1)} MB)`;
  }
  return '-';
}

async function runBackend(
  name: string,
  config: { dataDir: string; [setting: string]: unknown },
): Promise<void> {
  const rows = new Map<string, string[]>();
  const put = (label: string, value: string) => rows.set(label, [...(rows.get(label) ?? []), value]);
  let server = await start(config);
  const key = server.key;
  let have = 0;
  for (const size of SIZES) {
    const rate = size > have ? await ingest(server, have, size) : undefined;
    put('ingest (assets/s over HTTP, 8 at once)', rate ? rate.toFixed(0) : '-');
    have = Math.max(have, size);
    if (name === 'files') put('assets journal', await journalOf(config.dataDir));
    put('first PATCH after the uploads', await firstPatch(server));
    if (name === 'files') put('assets journal after it', await journalOf(config.dataDir));
    await stop(server);
    server = await start(config, key);
    // Reads begin once the background work of the start is done: what a library answers when settled.
    const { settledS } = await ask<{ settledS: number }>(server.child, 'settled');
    put(
      'restart: to listening / to first page / background done (s)',
      `${server.listenS.toFixed(2)} / ${server.firstAnswerS.toFixed(2)} / ${settledS.toFixed(2)}`,
    );
    for (const [label, value] of Object.entries(await reads(server, size))) put(label, value);
    const { rss, heapUsed } = await ask<{ rss: number; heapUsed: number }>(server.child, 'memory');
    put('RSS / heap (MB)', `${(rss / 1e6).toFixed(0)} / ${(heapUsed / 1e6).toFixed(0)}`);
    put('load average (1 min)', loadavg()[0]!.toFixed(1));
    console.error(`${name}: ${size} done`);
  }
  await stop(server);
  console.log(`\n${name}: | ${SIZES.map((s) => s.toLocaleString('en')).join(' | ')} |`);
  console.log(`|---|${SIZES.map(() => '---').join('|')}|`);
  for (const [label, cells] of rows) console.log(`| ${label} | ${cells.join(' | ')} |`);
}

/** `folio add` of `count` small files (100 folders) into a data folder whose server made its workspace. */
async function addFolder(count: number): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-scale-add-'));
  const folder = await mkdtemp(join(tmpdir(), 'folio-scale-folder-'));
  try {
    await stop(await start({ dataDir, fsync: true }));
    for (let dir = 0; dir < 100; dir++) {
      await mkdir(join(folder, `d${dir}`));
      await Promise.all(
        Array.from({ length: Math.ceil(count / 100) }, (_, i) =>
          writeFile(join(folder, `d${dir}`, `${nameOf(dir * 1000 + i)}`), `small file ${dir}/${i}\n`),
        ),
      );
    }
    const args = ['--import', 'tsx', 'server/cli/main.ts', 'add', folder, '--data-dir', dataDir];
    const first = await promisify(execFile)(process.execPath, args);
    const again = await promisify(execFile)(process.execPath, args);
    console.log(`\nfolio add, ${count} small files, fsync on (load ${loadavg()[0]!.toFixed(1)}):`);
    console.log(
      `first run: ${first.stdout.split('\n')[0]}\nsecond run: ${again.stdout.split('\n').slice(0, 2).join('; ')}`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  }
}

if (values.add) await addFolder(Number(values.add));
console.log(`Reads: ${READS} per figure, ms p50 / p99. Restart times include tsx compiling the server.`);
for (const backend of BACKENDS) {
  const dataDir = await mkdtemp(join(tmpdir(), `folio-scale-${backend}-`));
  try {
    if (backend === 'files') await runBackend('files', { dataDir, fsync: true });
    else {
      const [postgres, swift] = await Promise.all([startPostgres({ fsync: true }), startSwift()]);
      try {
        const s3 = {
          endpoint: swift.endpoint,
          region: swift.region,
          accessKeyId: swift.accessKeyId,
          secretAccessKey: swift.secretAccessKey,
          bucket: 'folio-scale',
          forcePathStyle: true,
        };
        await runBackend('postgres+s3', { dataDir, database: { url: postgres.url, poolSize: 10 }, s3 });
      } finally {
        await postgres.stop();
        await swift.stop();
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
