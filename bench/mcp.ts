/**
 * MCP over Streamable HTTP against the same call over REST, and sessions held at once.
 *
 * 1. Round trip of `assets_list` (20 assets) on one warm session, calls one after another in 3 interleaved rounds
 *    (best and median of the rounds' medians): Folio's REST
 *    `GET /api/v1/assets`, Folio's MCP `tools/call` through the SDK client and as a bare HTTP POST, and the SDK's own
 *    McpServer on bare node:http answering the same JSON (the floor MCP itself costs). Goal: MCP ≤ 1.5× REST.
 * 2. 100 SDK clients each holding a session (initialize, then the open GET stream), then calling at once: the
 *    server's RSS before, with the sessions open, and after they close; the same for the bare SDK server.
 *
 * Servers run in child processes so their RSS is read from /proc. `npx tsx bench/mcp.ts [--calls 3000] [--sessions 100]`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The SDK client adds an abort listener per request to its transport's one AbortSignal (thousands here), which only
// trips Node's leak warning; this process is the client, so the warning is silenced rather than printed 1000 times.
setMaxListeners(0);
const arg = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const CALLS = arg('--calls', 3000);
const SESSIONS = arg('--sessions', 100);
const ROUNDS = 3;
const BLOCK = 50;

type Child = { proc: ChildProcess; pid: number; info: Record<string, string> };

type Mode = { name: string; pid: number; rest: string; call: () => Promise<unknown> };

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-mcp-'));
  const folio = await startChild('bench/lib/mcp-folio-child.ts', [join(work, 'data'), '20']);
  const { url, key } = folio.info;
  const answer = await (
    await fetch(`${url}/api/v1/assets`, { headers: { authorization: `Bearer ${key}` } })
  ).text();
  await writeFile(join(work, 'answer.json'), answer);
  const peer = await startChild('bench/lib/mcp-peer-child.ts', [join(work, 'answer.json')]);
  // MCP_BENCH_BEFORE=<another checkout of Folio>: its server runs beside this one, in the same rounds
  const beforeRoot = process.env.MCP_BENCH_BEFORE;
  const before = beforeRoot
    ? await startChild('bench/lib/mcp-folio-child.ts', [join(work, 'before'), '20'], beforeRoot)
    : undefined;
  const children = [folio, peer, before].filter((c): c is Child => c !== undefined);
  try {
    console.log(`MCP construction costs (bench/lib/mcp-build-costs.ts): ${await buildCosts()}`);
    console.log(
      `assets_list answer: ${answer.length} bytes; ${CALLS} calls per row in ${ROUNDS} rounds, the rows taking turns every ${BLOCK} calls`,
    );
    const modes = [
      ...(await folioModes('', folio)),
      await peerMode(peer),
      ...(before ? await folioModes('before: ', before) : []),
    ];
    await roundTrips(modes);
    await sessions('Folio /mcp', folio, `${url}/mcp`, key);
    await sessions('bare SDK McpServer (node:http)', peer, `${peer.info.url}/mcp`);
  } finally {
    for (const child of children) child.proc.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

/** Folio's REST call, its MCP call through the SDK client, and the same MCP call as a bare POST. */
async function folioModes(label: string, child: Child): Promise<Mode[]> {
  const { url, key } = child.info;
  const auth = { authorization: `Bearer ${key}` };
  const client = await connect(`${url}/mcp`, auth);
  const sessionId = (client.transport as { sessionId?: string }).sessionId ?? '';
  const rawBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'assets_list', arguments: {} },
  });
  const rawHeaders = {
    ...auth,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': sessionId,
    'mcp-protocol-version': '2025-06-18',
  };
  const rest = `${label}Folio REST GET /api/v1/assets`;
  return [
    { rest, call: async () => (await fetch(`${url}/api/v1/assets`, { headers: auth })).json() },
    { rest, call: () => client.callTool({ name: 'assets_list', arguments: {} }) },
    {
      rest,
      call: async () => {
        const res = await fetch(`${url}/mcp`, { method: 'POST', headers: rawHeaders, body: rawBody });
        const text = await res.text();
        if (res.headers.get('content-type')?.startsWith('application/json')) return JSON.parse(text);
        const start = text.indexOf('data: ') + 6; // an SSE answer (Folio before JSON answers)
        return JSON.parse(text.slice(start, text.indexOf('\n', start)));
      },
    },
  ].map((mode, i) => ({
    ...mode,
    pid: child.pid,
    name: [
      rest,
      `${label}Folio MCP tools/call (SDK client)`,
      `${label}Folio MCP tools/call (bare fetch POST)`,
    ][i],
  }));
}

async function peerMode(child: Child): Promise<Mode> {
  const client = await connect(`${child.info.url}/mcp`, {});
  return {
    name: 'bare SDK McpServer tools/call (SDK client)',
    pid: child.pid,
    rest: 'Folio REST GET /api/v1/assets',
    call: () => client.callTool({ name: 'assets_list', arguments: {} }),
  };
}

async function roundTrips(modes: Mode[]) {
  // per round and mode: the calls' latencies, and the server's and this client's CPU over them
  const rounds = Array.from({ length: ROUNDS }, () =>
    Object.fromEntries(modes.map((m) => [m.name, { ms: [] as number[], server: 0, client: 0 }])),
  );
  for (const { call } of modes) for (let i = 0; i < 200; i++) await call(); // warm-up
  const load = [loadavg()[0]];
  for (const round of rounds) {
    // blocks of BLOCK calls, the rows taking turns, so every row sees the same load on this shared machine
    for (let done = 0; done < CALLS / ROUNDS; done += BLOCK)
      for (const { name, pid, call } of modes) {
        const row = round[name];
        const server0 = cpuMs(pid);
        const client0 = process.cpuUsage();
        for (let i = 0; i < BLOCK; i++) {
          const t = performance.now();
          await call();
          row.ms.push(performance.now() - t);
        }
        const client = process.cpuUsage(client0);
        row.client += (client.user + client.system) / 1000;
        row.server += cpuMs(pid) - server0;
      }
    load.push(loadavg()[0]);
  }
  // each round's median call, then the best and the median of those; "× REST" compares within each round first
  const stat = (f: (r: (typeof rounds)[0]) => number) => {
    const per = rounds.map(f).sort((a, b) => a - b);
    return { best: per[0], median: per[per.length >> 1] };
  };
  const fmt = (s: { best: number; median: number }, d = 2) => `${s.best.toFixed(d)} / ${s.median.toFixed(d)}`;
  console.log(
    `\n1-min load average during the rounds: ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}; each cell is best / median of ${ROUNDS} rounds (each round's median call); × REST against the same server's REST row`,
  );
  console.log(
    '| call | median ms | × REST (median) | p95 ms | server CPU ms/call | × REST (server CPU) | client CPU ms/call |\n|---|---|---|---|---|---|---|',
  );
  for (const { name, rest } of modes) {
    const perCall = (r: (typeof rounds)[0], n: string, k: 'server' | 'client') => r[n][k] / r[n].ms.length;
    const cells = [
      fmt(stat((r) => median(r[name].ms))),
      fmt(stat((r) => median(r[name].ms) / median(r[rest].ms))),
      fmt(stat((r) => pct(r[name].ms, 0.95))),
      fmt(
        stat((r) => perCall(r, name, 'server')),
        3,
      ),
      fmt(stat((r) => perCall(r, name, 'server') / perCall(r, rest, 'server'))),
      fmt(
        stat((r) => perCall(r, name, 'client')),
        3,
      ),
    ];
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
}

/** The construction costs the MCP surface pays: per process, per session, per HTTP request. */
async function buildCosts(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/mcp-build-costs.ts'], { cwd: ROOT });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  await new Promise((resolve) => child.once('exit', resolve));
  const c = JSON.parse(out) as Record<string, number>;
  return `the ${c.toolsInProcess}-tool catalog (zod → JSON Schema) ${(c.catalogUs / 1000).toFixed(1)} ms once per process; one session's McpServer ${c.sessionServerUs.toFixed(0)} µs at initialize; one request's SDK transport ${c.requestTransportUs.toFixed(1)} µs`;
}

async function sessions(name: string, child: Child, mcpUrl: string, key?: string): Promise<void> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const before = await memory(child);
  let t = performance.now();
  const clients = await Promise.all(Array.from({ length: SESSIONS }, () => connect(mcpUrl, headers)));
  const openMs = performance.now() - t;
  await settle(); // every client has its GET stream open
  const open = await memory(child);
  t = performance.now();
  const results = await Promise.all(clients.map((c) => c.callTool({ name: 'assets_list', arguments: {} })));
  const callMs = performance.now() - t;
  const failed = results.filter((r) => r.isError).length;
  const called = await memory(child);
  await Promise.all(
    clients.map(async (c) => {
      await (c.transport as StreamableHTTPClientTransport).terminateSession(); // DELETE, as a tidy client does
      await c.close();
    }),
  );
  await settle();
  const after = await memory(child);
  const mb = (m: Memory) => `${m.rss} MB (heap ${m.heap} MB)`;
  console.log(
    `\n${name}: ${SESSIONS} sessions opened in ${openMs.toFixed(0)} ms; all ${SESSIONS} called assets_list at once in ${callMs.toFixed(0)} ms (${failed} failed). Memory after a full GC:\n| before | ${SESSIONS} sessions open | after one call each | after DELETE | heap per session |\n|---|---|---|---|---|\n| ${mb(before)} | ${mb(open)} | ${mb(called)} | ${mb(after)} | ${((open.heapBytes - before.heapBytes) / SESSIONS / 1024).toFixed(0)} KB |`,
  );
}

type Memory = { rss: number; heap: number; heapBytes: number };

/** Asks the child to collect garbage and report its memory (see the children's stdin handler). */
function memory(child: Child): Promise<Memory> {
  return new Promise((resolve) => {
    child.proc.stdout?.once('data', (line: Buffer) => {
      const { rss, heapUsed } = JSON.parse(line.toString()) as { rss: number; heapUsed: number };
      resolve({ rss: Math.round(rss / 2 ** 20), heap: Math.round(heapUsed / 2 ** 20), heapBytes: heapUsed });
    });
    child.proc.stdin?.write('gc\n');
  });
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

function startChild(script: string, args: string[], cwd = ROOT): Promise<Child> {
  // MCP_BENCH_PROF=<dir>: each server writes a V8 CPU profile there when it exits (open it in Chrome DevTools)
  const prof = process.env.MCP_BENCH_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.MCP_BENCH_PROF}`]
    : [];
  const proc = spawn(process.execPath, [...prof, '--expose-gc', '--import', 'tsx', script, ...args], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    proc.stdout?.once('data', (line: Buffer) =>
      resolve({ proc, pid: proc.pid ?? 0, info: JSON.parse(line.toString()) as Record<string, string> }),
    );
  });
}

const settle = () => new Promise((r) => setTimeout(r, 1500));
const median = (s: number[]) => pct(s, 0.5);
/** CPU time (user + system) a process has used, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
function pct(s: number[], p: number): number {
  const sorted = [...s].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

await main();
