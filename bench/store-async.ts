/**
 * The async store costs nothing users can see: `GET /api/v1/me` and a 10,000-asset list page keep their
 * throughput and p99 within 10% of the commit before the refactor (`08de2bd`), measured in the same run.
 * That commit is checked out into a temporary git worktree (node_modules linked from this checkout); one data
 * directory is seeded through HTTP on it (10,000 small uploads into one workspace, with an API key) and copied.
 * Three servers, each a child process of its own, then serve their copy: the commit before; this checkout restarted
 * on data it already migrated (what every later start sees); and this checkout on its first start, serving the rows
 * its migration (which adds `searchText` to every asset) has just rewritten in memory (the first run after an
 * upgrade, until the next restart). wrk runs rotate between them; beside req/s and p99, the server's CPU time per
 * request (from /proc, less shaken by other load on the machine than throughput). With `--profile`, or when a figure misses the
 * goal, the servers that missed it and the one before are profiled under the same load (V8 CPU profile of the
 * server thread, taken over the IPC channel) and their hot spots printed side by side.
 * `npx tsx bench/store-async.ts [--seconds 5] [--rounds 3] [--assets 10000] [--before 08de2bd] [--profile]`
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type CpuSummary, summarizeCpuProfile } from './lib/cpu-profile.js';
import { type WrkRun, wrk } from './lib/wrk.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const run = promisify(execFile);
const argOf = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const seconds = Number(argOf('seconds')) || 5;
const rounds = Number(argOf('rounds')) || 3;
const assetCount = Number(argOf('assets')) || 10_000;
const before = argOf('before') ?? '08de2bd';
const forceProfile = process.argv.includes('--profile');
const GOAL = 0.1;
const CONNECTIONS = 10;
const LATER_PAGE = Math.floor(assetCount / 100) * 50; // the page that starts half-way down the list

type Checkout = 'before' | 'after';
type ServerName = 'before' | 'after' | 'after, first start';
const SERVERS: { name: ServerName; checkout: Checkout }[] = [
  { name: 'before', checkout: 'before' },
  { name: 'after', checkout: 'after' },
  { name: 'after, first start', checkout: 'after' },
];
type Child = { proc: ChildProcess; url: string; signIn: string; name: ServerName };
type Target = { name: string; path: (cursor: string) => string };

const work = await mkdtemp(join(tmpdir(), 'folio-bench-store-async-'));
const beforeRoot = join(work, 'checkout-before');
const roots: Record<Checkout, string> = { before: beforeRoot, after: ROOT };
const children = new Set<ChildProcess>();
let copies = 0;

function startChild(name: ServerName, checkout: Checkout, dataDir: string, fsync: boolean) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/checkout-child.ts', roots[checkout], dataDir, fsync ? '1' : '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let out = '';
  return new Promise<Child>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out}`)), 300_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"url"'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ proc, name, ...(JSON.parse(line) as { url: string; signIn: string }) });
    });
    proc.stderr!.on('data', (d) => (out += d));
    proc.once('exit', (code) => reject(new Error(`${name} exited ${code}:\n${out}`)));
  });
}

/**
 * Starts `server` on its own data: `before` on the seeded directory, `after` on the copy it migrated, `after, first
 * start` on a fresh copy of `pristine` (the seeded data as it was when seeding stopped; the live directory is locked).
 */
async function startServer(server: (typeof SERVERS)[number], seeded: string, migrated: string) {
  const pristine = `${seeded}-pristine`;
  if (server.name === 'before') return startChild(server.name, 'before', seeded, true);
  if (server.name === 'after') return startChild(server.name, 'after', migrated, true);
  const fresh = join(work, `data-copy-${++copies}`);
  await cp(pristine, fresh, { recursive: true });
  return startChild(server.name, 'after', fresh, true);
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}

const rssMb = async (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Sends `message` to the child and resolves with its answer. */
function ask<T>(child: Child, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.proc.once('message', (m) => resolve(m as T));
    child.proc.send(message);
  });
}

type Idle = { utilization: number; delayP99Ms: number; delayMaxMs: number; heapMb: number; rssMb: number };
async function idleStats(child: Child, ms = 3000): Promise<Idle> {
  const loop = await ask<Omit<Idle, 'rssMb'>>(child, { idle: ms });
  return { ...loop, rssMb: await rssMb(child.proc.pid!) };
}

async function ownerKey(child: Child): Promise<string> {
  const res = await fetch(child.signIn, { redirect: 'manual' });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('folio_session='))!
    .split(';')[0];
  const made = await fetch(`${child.url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { cookie, origin: child.url, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', services: ['assets', 'transcription'] }),
  });
  if (made.status !== 201) throw new Error(`key: ${made.status} ${await made.text()}`);
  return ((await made.json()) as { secret: string }).secret;
}

/** `count` small distinct text files, uploaded `parallel` at a time. */
async function seed(child: Child, key: string, count: number, parallel = 16): Promise<number> {
  const t = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const form = new FormData();
      const text = `asset ${i} ${'lorem ipsum dolor sit amet '.repeat(4 + (i % 5))}\n`;
      form.set('file', new Blob([text], { type: 'text/plain' }), `note-${i}.txt`);
      form.set('tags', `seed,batch-${i % 10}`);
      const res = await fetch(`${child.url}/api/v1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return (performance.now() - t) / 1000;
}

type Page = { data: Record<string, unknown>[]; nextCursor: string | null };
async function getJson<T>(url: string, key: string): Promise<{ body: T; bytes: number }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text}`);
  return { body: JSON.parse(text) as T, bytes: Buffer.byteLength(text) };
}

/** The cursor that starts the page at `offset` (a multiple of 50), found by paging from the top. */
async function cursorAt(child: Child, key: string, offset: number): Promise<string> {
  let cursor = '';
  for (let seen = 0; seen < offset; seen += 50) {
    const q = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const { body } = await getJson<Page>(`${child.url}/api/v1/assets?limit=50${q}`, key);
    if (!body.nextCursor) throw new Error(`${child.name}: only ${seen + body.data.length} assets`);
    cursor = body.nextCursor;
  }
  return cursor;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f1 = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(n >= 10 ? 1 : 2));
const pct = (r: number) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
const load = (child: Child, key: string, path: string, s: number) =>
  wrk(`${child.url}${path}`, {
    connections: CONNECTIONS,
    seconds: s,
    headers: { authorization: `Bearer ${key}` },
  });

type Measured = WrkRun & { cpuUsPerRequest: number };
type Figure = { reqPerSec: number; p99: number; cpuUs: number; xs: Measured[] };

/** User + system CPU time of `pid` so far, in ms (from /proc: clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
type Row = {
  target: string;
  server: ServerName;
  b: Figure;
  a: Figure;
  rpsRatio: number;
  p99Ratio: number;
  ok: boolean;
};

async function measure(servers: Child[], key: string, targets: Target[], cursors: Map<Child, string>) {
  const runs = new Map<string, Measured[]>();
  for (let r = 0; r < rounds; r++)
    for (const t of targets)
      for (let i = 0; i < servers.length; i++) {
        const child = servers[(i + r) % servers.length]; // each server goes first once per rotation
        const cpu0 = await cpuMs(child.proc.pid!);
        const run = await load(child, key, t.path(cursors.get(child)!), seconds);
        const result = {
          ...run,
          cpuUsPerRequest: (((await cpuMs(child.proc.pid!)) - cpu0) * 1000) / run.requests,
        };
        if (result.non2xx || !result.requests)
          throw new Error(`${child.name} ${t.name}: ${result.non2xx} non-2xx of ${result.requests}`);
        const id = `${t.name}|${child.name}`;
        runs.set(id, [...(runs.get(id) ?? []), result]);
        console.log(
          `  round ${r + 1} ${t.name} ${child.name}: ${result.reqPerSec.toFixed(0)} req/s, p99 ${f1(result.p99)} ms, ${result.cpuUsPerRequest.toFixed(0)} µs CPU per request`,
        );
      }
  const figure = (target: string, server: ServerName): Figure => {
    const xs = runs.get(`${target}|${server}`)!;
    return {
      reqPerSec: median(xs.map((x) => x.reqPerSec)),
      p99: median(xs.map((x) => x.p99)),
      cpuUs: median(xs.map((x) => x.cpuUsPerRequest)),
      xs,
    };
  };
  return targets.flatMap((t) =>
    (['after', 'after, first start'] as const).map((server): Row => {
      const b = figure(t.name, 'before');
      const a = figure(t.name, server);
      const rpsRatio = a.reqPerSec / b.reqPerSec;
      const p99Ratio = a.p99 / b.p99;
      return {
        target: t.name,
        server,
        b,
        a,
        rpsRatio,
        p99Ratio,
        ok: rpsRatio >= 1 - GOAL && p99Ratio <= 1 + GOAL,
      };
    }),
  );
}

type Profiled = {
  target: string;
  requests: Partial<Record<ServerName, number>>;
  summaries: Partial<Record<ServerName, CpuSummary>>;
};

/** CPU profiles of `names` (and `before`) under `seconds` of wrk on `target`, each on a freshly started server. */
async function profile(
  seeded: string,
  migrated: string,
  key: string,
  target: Target,
  names: ServerName[],
): Promise<Profiled> {
  const dir = join(work, 'profiles');
  await mkdir(dir, { recursive: true });
  const out: Profiled = { target: target.name, requests: {}, summaries: {} };
  for (const server of SERVERS.filter((s) => s.name === 'before' || names.includes(s.name))) {
    const path = join(
      dir,
      `${server.name.replace(/\W+/g, '-')}-${Math.random().toString(36).slice(2)}.cpuprofile`,
    );
    const child = await startServer(server, seeded, migrated);
    const cursor = await cursorAt(child, key, LATER_PAGE);
    await load(child, key, target.path(cursor), 1); // warm up before the profile starts
    await ask(child, { profile: 'start' });
    out.requests[server.name] = (await load(child, key, target.path(cursor), seconds)).requests;
    await ask(child, { profile: 'stop', path });
    await stop(child.proc);
    out.summaries[server.name] = await summarizeCpuProfile(path, [roots[server.checkout], ROOT]);
  }
  return out;
}

function printProfile({ target, requests, summaries }: Profiled): void {
  const names = Object.keys(summaries) as ServerName[];
  const busyMsPerRequest = (n: ServerName) => {
    const idle = summaries[n]!.byArea.find((x) => x.area === '(idle)')?.percent ?? 0;
    return ((summaries[n]!.totalMs * (1 - idle / 100)) / (requests[n] || 1)).toFixed(2);
  };
  console.log(`\nCPU profile of the server thread under wrk -c${CONNECTIONS} -d${seconds}s, ${target}`);
  console.log(
    `requests served while profiling: ${names.map((n) => `${n} ${requests[n]} (${busyMsPerRequest(n)} ms of non-idle thread time per request)`).join(', ')}`,
  );
  console.log(
    'self time, % of samples (idle included); tsx keeps no line numbers, so functions are named by file\n',
  );
  console.log(`| # | ${names.map((n) => `${n} | %`).join(' | ')} |`);
  console.log(`|---|${names.map(() => '---|---').join('|')}|`);
  for (let i = 0; i < 15; i++) {
    const cells = names.map((n) => {
      const h = summaries[n]!.top[i];
      return h ? `\`${h.name}\` ${h.where} | ${h.percent.toFixed(1)}` : ' | ';
    });
    console.log(`| ${i + 1} | ${cells.join(' | ')} |`);
  }
  console.log(`\n| area | ${names.map((n) => `${n} %`).join(' | ')} |`);
  console.log(`|---|${names.map(() => '---').join('|')}|`);
  const areas = new Set(names.flatMap((n) => summaries[n]!.byArea.map((x) => x.area)));
  for (const area of areas)
    console.log(
      `| ${area} | ${names.map((n) => (summaries[n]!.byArea.find((x) => x.area === area)?.percent ?? 0).toFixed(1)).join(' | ')} |`,
    );
}

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const load0 = loadavg();
  const sha = async (rev: string) =>
    (await run('git', ['rev-parse', '--short', rev], { cwd: ROOT })).stdout.trim();
  const [beforeSha, afterSha] = [await sha(before), await sha('HEAD')];
  await run('git', ['worktree', 'add', '--detach', beforeRoot, before], { cwd: ROOT });
  await symlink(join(ROOT, 'node_modules'), join(beforeRoot, 'node_modules'));

  // One data directory, seeded through HTTP on the older version; the newer one migrates a copy once (start, stop).
  const seeded = join(work, 'data-seeded');
  const migrated = join(work, 'data-migrated');
  const seeder = await startChild('before', 'before', seeded, false);
  const key = await ownerKey(seeder);
  const seedSeconds = await seed(seeder, key, assetCount);
  console.log(`seeded ${assetCount} uploads on ${before} in ${seedSeconds.toFixed(1)} s`);
  await stop(seeder.proc);
  await cp(seeded, migrated, { recursive: true });
  await cp(seeded, `${seeded}-pristine`, { recursive: true });
  let t = performance.now();
  await stop((await startChild('after', 'after', migrated, true)).proc);
  const migrationStart = (performance.now() - t) / 1000;

  const servers: Child[] = [];
  const startSeconds: number[] = [];
  for (const server of SERVERS) {
    t = performance.now();
    servers.push(await startServer(server, seeded, migrated));
    startSeconds.push((performance.now() - t) / 1000);
  }

  const cursors = new Map<Child, string>();
  const shapes: string[] = [];
  for (const child of servers) {
    cursors.set(child, await cursorAt(child, key, LATER_PAGE));
    const me = await getJson<object>(`${child.url}/api/v1/me`, key);
    const first = await getJson<Page>(`${child.url}/api/v1/assets?limit=50`, key);
    const later = await getJson<Page>(
      `${child.url}/api/v1/assets?limit=50&cursor=${encodeURIComponent(cursors.get(child)!)}`,
      key,
    );
    shapes.push(
      `- ${child.name}: /me ${me.bytes} B; first page ${first.body.data.length} assets, ${first.bytes} B; later page ${later.body.data.length} assets, ${later.bytes} B, starting at ${later.body.data[0]?.id}; asset fields: ${Object.keys(first.body.data[0] ?? {}).join(' ')}`,
    );
  }
  const targets: Target[] = [
    { name: 'GET /api/v1/me (key)', path: () => '/api/v1/me' },
    {
      name: `GET /api/v1/assets?limit=50, first page of ${assetCount}`,
      path: () => '/api/v1/assets?limit=50',
    },
    {
      name: `GET /api/v1/assets?limit=50&cursor=, page at ${LATER_PAGE}`,
      path: (cursor) => `/api/v1/assets?limit=50&cursor=${encodeURIComponent(cursor)}`,
    },
  ];

  const idleBefore: Idle[] = [];
  for (const child of servers) idleBefore.push(await idleStats(child));
  const rows = await measure(servers, key, targets, cursors);
  const idleAfter: Idle[] = [];
  for (const child of servers) idleAfter.push(await idleStats(child));
  for (const child of servers) await stop(child.proc);

  const lines = [
    `${started}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average at start ${load0.map((n) => n.toFixed(2)).join(' ')}, at end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
    `before = ${before} (${beforeSha}), after = this checkout (${afterSha}); ${assetCount} assets seeded through HTTP on before in ${seedSeconds.toFixed(1)} s (16 parallel, fsync off); every server serves a copy of that data, fsync on`,
    `start-up on the seeded data: before ${startSeconds[0].toFixed(1)} s; after, first start (runs the migration) ${startSeconds[2].toFixed(1)} s (${migrationStart.toFixed(1)} s the first time, incl. stop); after, restarted ${startSeconds[1].toFixed(1)} s`,
    ...shapes,
    '',
    `wrk -c${CONNECTIONS} -t2 -d${seconds}s, ${rounds} rounds rotating between the servers, median of the rounds; goal: req/s ≥ 0.90× and p99 ≤ 1.10× before`,
    '',
    '| test | server | req/s before | req/s after | after ÷ before | p99 ms before | p99 ms after | after ÷ before | within 10% | server CPU µs per request, before / after |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.server} | ${r.b.reqPerSec.toFixed(0)} | ${r.a.reqPerSec.toFixed(0)} | ${r.rpsRatio.toFixed(2)} (${pct(r.rpsRatio)}) | ${f1(r.b.p99)} | ${f1(r.a.p99)} | ${r.p99Ratio.toFixed(2)} (${pct(r.p99Ratio)}) | ${r.ok ? 'yes' : '**no**'} | ${r.b.cpuUs.toFixed(0)} / ${r.a.cpuUs.toFixed(0)} (${pct(r.a.cpuUs / r.b.cpuUs)}) |`,
    ),
    '',
    'Every round (req/s / p99 ms / CPU µs per request):',
    ...targets.map((tg) => {
      const of = (server: ServerName) => {
        const row = rows.find((r) => r.target === tg.name && (r.server === server || server === 'before'))!;
        const xs = server === 'before' ? row.b.xs : row.a.xs;
        return `${server} ${xs.map((x) => `${x.reqPerSec.toFixed(0)}/${f1(x.p99)}/${x.cpuUsPerRequest.toFixed(0)}`).join(', ')}`;
      };
      return `- ${tg.name}: ${SERVERS.map((s) => of(s.name)).join('; ')}`;
    }),
    '',
    '| server | when | event-loop utilisation (3 s idle) | loop delay p99 ms | max ms | heap MB | RSS MB |',
    '|---|---|---|---|---|---|---|',
    ...servers.flatMap((child, i) =>
      (
        [
          ['idle, before the load', idleBefore[i]],
          ['idle, after the load', idleAfter[i]],
        ] as const
      ).map(
        ([when, s]) =>
          `| ${child.name} | ${when} | ${(s.utilization * 100).toFixed(2)}% | ${f1(s.delayP99Ms)} | ${f1(s.delayMaxMs)} | ${s.heapMb.toFixed(0)} | ${s.rssMb.toFixed(0)} |`,
      ),
    ),
  ];
  const slower = rows.filter((r) => !r.ok);
  lines.push(
    '',
    slower.length
      ? `SLOWER THAN THE GOAL: ${slower.map((r) => `${r.target}, ${r.server} (req/s ${pct(r.rpsRatio)}, p99 ${pct(r.p99Ratio)})`).join('; ')}`
      : 'Every figure is within 10% of before.',
  );
  console.log(`\n${lines.join('\n')}`);
  for (const target of targets) {
    const names = rows
      .filter((r) => r.target === target.name && (forceProfile || !r.ok))
      .map((r) => r.server);
    if (names.length) printProfile(await profile(seeded, migrated, key, target, names));
  }
}

async function cleanUp(): Promise<void> {
  for (const p of children) await stop(p);
  await run('git', ['worktree', 'remove', '--force', beforeRoot], { cwd: ROOT }).catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}

process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
try {
  await main();
} finally {
  await cleanUp();
}
