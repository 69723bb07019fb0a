/**
 * Foundation bench (bench/README.md "Foundation"): (a) framework overhead, Folio vs a bare Koa app and a bare
 * node:http handler sending the same JSON (`GET /api/v1/me` with a key, a session's key list, and a 50-asset page of
 * a workspace holding `--assets` assets, default 10,000, served by the peers from memory); (b) write latency with 1k / 10k / 100k records in one workspace's key collection, fsync on
 * and off, beside json-server 0.17.4 (lowdb 1) on the same records. Every server runs in its own process; wrk
 * (C) generates the load. `npx tsx bench/foundation.ts [--seconds 5] [--rounds 3] [--sizes 1000,10000,100000]`
 * (`--sizes ''` runs only the overhead part).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { luaRequests, type WrkRun, wrk } from './lib/wrk.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argOf = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const seconds = Number(argOf('seconds')) || 5;
const rounds = Number(argOf('rounds')) || 3;
const sizes = (argOf('sizes') ?? '1000,10000,100000').split(',').filter(Boolean).map(Number);
const assetCount = Number(argOf('assets') ?? 10_000);
const work = await mkdtemp(join(tmpdir(), 'folio-bench-foundation-'));
const children: ChildProcess[] = [];

/** Spawns a child and resolves with the first stdout line matching `ready`. */
function spawnUntil(
  command: string,
  args: string[],
  ready: RegExp,
  timeoutMs = 300_000,
): Promise<{ proc: ChildProcess; line: string }> {
  const proc = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(' ')} did not start:\n${out}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => ready.test(l));
      if (line) {
        clearTimeout(timer);
        resolve({ proc, line });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d) => (out += d));
    proc.once('exit', (code) => reject(new Error(`${command} exited ${code}:\n${out}`)));
  });
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}

const rssMb = async (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

type FolioInfo = { url: string; cookie: string; key: string; keyIds: string[] };
async function startFolio(name: string, fsync: boolean, seed: number, assets = 0) {
  const dir = join(work, name);
  const { proc, line } = await spawnUntil(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/folio-child.ts', dir, fsync ? '1' : '0', String(seed), String(assets)],
    /^\{"url"/,
  );
  return { proc, ...(JSON.parse(line) as FolioInfo) };
}

/** bare node:http (`bare-child`) or a bare Koa app (`koa-child`) sending `body` to every request. */
async function startBare(body: Buffer, name: string, script = 'bare-child') {
  const file = join(work, `${name}.json`);
  await writeFile(file, body);
  const { proc, line } = await spawnUntil(
    process.execPath,
    ['--import', 'tsx', `bench/lib/${script}.ts`, file],
    /^listening /,
  );
  return { proc, url: line.slice('listening '.length) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load1 = () => loadavg()[0].toFixed(2);
const f1 = (n: number) => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n.toFixed(n >= 10 ? 1 : 2)) : '—');

// ---- (a) framework overhead ----
async function overhead() {
  const folio = await startFolio('overhead', true, 0, assetCount);
  const session = { cookie: folio.cookie, origin: folio.url };
  for (let i = 0; i < 4; i++)
    await fetch(`${folio.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `key ${i}`, services: ['assets'] }),
    });
  const meBytes = Buffer.from(
    await (
      await fetch(`${folio.url}/api/v1/me`, { headers: { authorization: `Bearer ${folio.key}` } })
    ).arrayBuffer(),
  );
  const listBytes = Buffer.from(
    await (await fetch(`${folio.url}/api/v1/api-keys`, { headers: { cookie: folio.cookie } })).arrayBuffer(),
  );
  const keyHeaders = { authorization: `Bearer ${folio.key}` };
  const pagePath = '/api/v1/assets?limit=50';
  const page = await fetch(`${folio.url}${pagePath}`, { headers: keyHeaders });
  const pageBytes = Buffer.from(await page.arrayBuffer());
  if (!page.ok || (JSON.parse(pageBytes.toString()) as { data: unknown[] }).data.length !== 50)
    throw new Error(`${pagePath} did not answer 50 assets: ${page.status}`);
  const bareMe = await startBare(meBytes, 'me');
  const bareList = await startBare(listBytes, 'list');
  const barePage = await startBare(pageBytes, 'page');
  const koaMe = await startBare(meBytes, 'koa-me', 'koa-child');
  const koaList = await startBare(listBytes, 'koa-list', 'koa-child');
  const koaPage = await startBare(pageBytes, 'koa-page', 'koa-child');
  const me = 'GET /api/v1/me (key)';
  const list = 'GET /api/v1/api-keys (session, 6 keys)';
  const assets = `GET ${pagePath} (key, ${assetCount} assets)`;
  const targets: { test: string; server: string; url: string; headers: Record<string, string> }[] = [
    {
      test: me,
      server: 'Folio',
      url: `${folio.url}/api/v1/me`,
      headers: { authorization: `Bearer ${folio.key}` },
    },
    { test: me, server: 'bare Koa 3, same JSON', url: `${koaMe.url}/api/v1/me`, headers: {} },
    { test: me, server: 'bare node:http', url: `${bareMe.url}/api/v1/me`, headers: {} },
    { test: list, server: 'Folio', url: `${folio.url}/api/v1/api-keys`, headers: { cookie: folio.cookie } },
    { test: list, server: 'bare Koa 3, same JSON', url: `${koaList.url}/api/v1/api-keys`, headers: {} },
    { test: list, server: 'bare node:http', url: `${bareList.url}/api/v1/api-keys`, headers: {} },
    { test: assets, server: 'Folio', url: `${folio.url}${pagePath}`, headers: keyHeaders },
    { test: assets, server: 'bare Koa 3, same JSON', url: `${koaPage.url}${pagePath}`, headers: {} },
    { test: assets, server: 'bare node:http', url: `${barePage.url}${pagePath}`, headers: {} },
  ];
  const runs = targets.map(() => [] as WrkRun[]);
  const loads: string[] = [];
  for (let r = 0; r < rounds; r++) {
    loads.push(load1());
    for (const [i, t] of targets.entries())
      runs[i].push(await wrk(t.url, { connections: 10, seconds, headers: t.headers }));
  }
  loads.push(load1());
  const rows = targets.map((t, i) => ({
    ...t,
    best: Math.max(...runs[i].map((x) => x.reqPerSec)),
    reqPerSec: median(runs[i].map((x) => x.reqPerSec)),
    p50: median(runs[i].map((x) => x.p50)),
    p99: median(runs[i].map((x) => x.p99)),
    non2xx: runs[i].reduce((n, x) => n + x.non2xx, 0),
  }));
  const lines = [
    '| test | server | req/s median (best) | p50 ms | p99 ms | vs bare Koa, median (best) | vs bare node:http |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const koa = rows.find((x) => x.test === r.test && x.server.startsWith('bare Koa'))!;
    const bare = rows.find((x) => x.test === r.test && x.server === 'bare node:http')!;
    const bold = (s: string) => (r.server === 'Folio' ? `**${s}**` : s);
    const vsKoa =
      r.server === 'Folio'
        ? bold(`${(r.reqPerSec / koa.reqPerSec).toFixed(2)}× (${(r.best / koa.best).toFixed(2)}×)`)
        : '';
    const vsBare = r === bare ? '' : `${(r.reqPerSec / bare.reqPerSec).toFixed(2)}×`;
    lines.push(
      `| ${r.test} | ${r.server} | ${r.reqPerSec.toFixed(0)} (${r.best.toFixed(0)}) | ${f1(r.p50)} | ${f1(r.p99)} | ${vsKoa} | ${vsBare}${r.non2xx ? ` (${r.non2xx} non-2xx!)` : ''} |`,
    );
  }
  lines.push('', `1-min load average before each round and at the end: ${loads.join(', ')}`);
  for (const p of [
    folio.proc,
    bareMe.proc,
    bareList.proc,
    barePage.proc,
    koaMe.proc,
    koaList.proc,
    koaPage.proc,
  ])
    await stop(p);
  return lines.join('\n');
}

// ---- (b) write latency ----
type WriteRow = { size: number; server: string; op: string; c: number; run: WrkRun; rss: number };

async function folioWrites(size: number, fsync: boolean): Promise<WriteRow[]> {
  const folio = await startFolio(`writes-${size}-${fsync ? 'fsync' : 'nofsync'}`, fsync, size);
  const headers = { cookie: folio.cookie, origin: folio.url, 'content-type': 'application/json' };
  const server = `Folio, fsync ${fsync ? 'on' : 'off'}`;
  const rows: WriteRow[] = [];
  for (const c of [1, 10]) {
    const create = luaRequests(
      'POST',
      ['/api/v1/api-keys'],
      JSON.stringify({ name: 'bench create', services: ['assets'] }),
      headers,
    );
    const patch = luaRequests(
      'PATCH',
      folio.keyIds.map((id) => `/api/v1/api-keys/${id}`),
      JSON.stringify({ name: 'bench patch' }),
      headers,
    );
    for (const [op, script] of [
      ['create', create],
      ['patch', patch],
    ] as const) {
      const run = await wrk(folio.url, { connections: c, seconds, script, scriptDir: work });
      rows.push({ size, server, op, c, run, rss: await rssMb(folio.proc.pid!) });
    }
  }
  await stop(folio.proc);
  return rows;
}

async function jsonServerWrites(size: number): Promise<WriteRow[]> {
  const at = new Date().toISOString();
  const record = (i: number) => ({
    id: `key_seed${String(i).padStart(15, '0')}`,
    workspaceId: 'ws_benchbenchbenchbench',
    name: `seeded key ${i}`,
    services: ['assets', 'transcription'],
    prefix: 'fk_abcdefgh',
    hash: 'f'.repeat(64),
    createdAt: at,
    updatedAt: at,
    lastUsedAt: null,
  });
  const db = join(work, `json-server-${size}.json`);
  await writeFile(db, JSON.stringify({ keys: Array.from({ length: size }, (_, i) => record(i)) }, null, 2));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const bin = join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
  const proc = spawn(process.execPath, [bin, '--port', String(port), '--host', '127.0.0.1', '--quiet', db], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  children.push(proc);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/keys/${record(0).id}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 3000 || proc.exitCode !== null) throw new Error(`json-server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const headers = { 'content-type': 'application/json' };
  const ids = Array.from({ length: Math.min(size, 1000) }, (_, i) => `/keys/${record(i).id}`);
  const { id: _id, ...fresh } = record(0);
  const rows: WriteRow[] = [];
  for (const c of [1, 10]) {
    const create = luaRequests(
      'POST',
      ['/keys'],
      JSON.stringify({ ...fresh, name: 'bench create' }),
      headers,
    );
    const patch = luaRequests('PATCH', ids, JSON.stringify({ name: 'bench patch' }), headers);
    for (const [op, script] of [
      ['create', create],
      ['patch', patch],
    ] as const) {
      const run = await wrk(url, { connections: c, seconds, script, scriptDir: work });
      rows.push({ size, server: 'json-server 0.17.4', op, c, run, rss: await rssMb(proc.pid!) });
    }
  }
  await stop(proc);
  return rows;
}

function writeTable(rows: WriteRow[]): string {
  const lines = [
    '| records | server | op | c | p50 ms | p99 ms | req/s | requests | server RSS MB |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.size / 1000}k | ${r.server} | ${r.op} | ${r.c} | ${f1(r.run.p50)} | ${f1(r.run.p99)} | ${r.run.reqPerSec.toFixed(0)} | ${r.run.requests}${r.run.non2xx ? ` (${r.run.non2xx} non-2xx!)` : ''} | ${r.rss.toFixed(0)} |`,
    );
  return lines.join('\n');
}

function goals(rows: WriteRow[]): string {
  const p99 = (size: number, server: string, op: string, c: number) =>
    rows.find((r) => r.size === size && r.server === server && r.op === op && r.c === c)?.run.p99 ??
    Number.NaN;
  const small = Math.min(...sizes);
  const big = Math.max(...sizes);
  const out = ['| goal | op | c | Folio fsync on | Folio fsync off |', '|---|---|---|---|---|'];
  for (const op of ['create', 'patch'])
    for (const c of [1, 10]) {
      const on = p99(big, 'Folio, fsync on', op, c) / p99(small, 'Folio, fsync on', op, c);
      const off = p99(big, 'Folio, fsync off', op, c) / p99(small, 'Folio, fsync off', op, c);
      out.push(
        `| p99 at ${big / 1000}k ÷ p99 at ${small / 1000}k (≤ 2) | ${op} | ${c} | ${on.toFixed(2)} | ${off.toFixed(2)} |`,
      );
    }
  for (const op of ['create', 'patch'])
    for (const c of [1, 10]) {
      const peer = p99(big, 'json-server 0.17.4', op, c);
      out.push(
        `| json-server p99 ÷ Folio p99 at ${big / 1000}k (≥ 10) | ${op} | ${c} | ${(peer / p99(big, 'Folio, fsync on', op, c)).toFixed(0)}× | ${(peer / p99(big, 'Folio, fsync off', op, c)).toFixed(0)}× |`,
      );
    }
  return out.join('\n');
}

try {
  const started = new Date().toISOString();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average at start ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
  const a = await overhead();
  console.log(`${a}\n`);
  const writes: WriteRow[] = [];
  for (const size of sizes) {
    const rows = [
      ...(await folioWrites(size, true)),
      ...(await folioWrites(size, false)),
      ...(await jsonServerWrites(size)),
    ];
    console.log(`${writeTable(rows)}\n`);
    writes.push(...rows);
  }
  console.log(
    `\n${started}; ${machine}; load average at end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(`\n(a) framework overhead, wrk -c10 -t2 -d${seconds}s, median of ${rounds}\n\n${a}`);
  if (writes.length > 0) {
    console.log(`\n(b) write latency, wrk -d${seconds}s, c = connections\n\n${writeTable(writes)}`);
    console.log(`\nGoals\n\n${goals(writes)}`);
  }
} finally {
  for (const p of children) await stop(p);
  await rm(work, { recursive: true, force: true });
}
