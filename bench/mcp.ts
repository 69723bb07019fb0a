/**
 * MCP over Streamable HTTP against the same call over REST, and sessions held at once.
 *
 * 1. Round trip of `assets_list` (20 assets) on one warm session, calls one after another: Folio's REST
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
import { tmpdir } from 'node:os';
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
const ROUNDS = 10;

type Child = { proc: ChildProcess; pid: number; info: Record<string, string> };

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-mcp-'));
  const folio = await startChild('bench/lib/mcp-folio-child.ts', [join(work, 'data'), '20']);
  const { url, key } = folio.info;
  const answer = await (
    await fetch(`${url}/api/v1/assets`, { headers: { authorization: `Bearer ${key}` } })
  ).text();
  await writeFile(join(work, 'answer.json'), answer);
  const peer = await startChild('bench/lib/mcp-peer-child.ts', [join(work, 'answer.json')]);
  try {
    console.log(
      `assets_list answer: ${answer.length} bytes; ${CALLS} calls per row in ${ROUNDS} interleaved rounds`,
    );
    await roundTrips(url, key, peer.info.url, folio.pid, peer.pid);
    await sessions('Folio /mcp', folio, `${url}/mcp`, key);
    await sessions('bare SDK McpServer (node:http)', peer, `${peer.info.url}/mcp`);
  } finally {
    folio.proc.kill('SIGTERM');
    peer.proc.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

async function roundTrips(url: string, key: string, peerUrl: string, folioPid: number, peerPid: number) {
  const auth = { authorization: `Bearer ${key}` };
  const folio = await connect(`${url}/mcp`, auth);
  const peer = await connect(`${peerUrl}/mcp`, {});
  const sessionId = (folio.transport as { sessionId?: string }).sessionId ?? '';
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
  const modes: Record<string, () => Promise<unknown>> = {
    'Folio REST GET /api/v1/assets': async () =>
      (await fetch(`${url}/api/v1/assets`, { headers: auth })).json(),
    'Folio MCP tools/call (SDK client)': () => folio.callTool({ name: 'assets_list', arguments: {} }),
    'Folio MCP tools/call (bare fetch POST, SSE event parsed)': async () => {
      const res = await fetch(`${url}/mcp`, { method: 'POST', headers: rawHeaders, body: rawBody });
      const text = await res.text();
      if (res.headers.get('content-type')?.startsWith('application/json')) return JSON.parse(text);
      const start = text.indexOf('data: ') + 6;
      return JSON.parse(text.slice(start, text.indexOf('\n', start)));
    },
    'bare SDK McpServer tools/call (SDK client)': () => peer.callTool({ name: 'assets_list', arguments: {} }),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
  const serverCpu: Record<string, number> = Object.fromEntries(Object.keys(modes).map((m) => [m, 0]));
  const clientCpu: Record<string, number> = { ...serverCpu };
  const pidOf: Record<string, number> = Object.fromEntries(
    Object.keys(modes).map((m) => [m, m.startsWith('bare SDK') ? peerPid : folioPid]),
  );
  for (const fn of Object.values(modes)) for (let i = 0; i < 200; i++) await fn(); // warm-up
  for (let round = 0; round < ROUNDS; round++)
    for (const [mode, fn] of Object.entries(modes)) {
      const server0 = cpuMs(pidOf[mode]);
      const client0 = process.cpuUsage();
      for (let i = 0; i < CALLS / ROUNDS; i++) {
        const t = performance.now();
        await fn();
        samples[mode].push(performance.now() - t);
      }
      const client = process.cpuUsage(client0);
      clientCpu[mode] += (client.user + client.system) / 1000;
      serverCpu[mode] += cpuMs(pidOf[mode]) - server0;
    }
  const restMedian = median(samples['Folio REST GET /api/v1/assets']);
  const restServer = serverCpu['Folio REST GET /api/v1/assets'];
  console.log(
    '\n| call | median ms | p95 ms | × REST (median) | server CPU ms/call | × REST (server CPU) | client CPU ms/call |\n|---|---|---|---|---|---|---|',
  );
  for (const [mode, s] of Object.entries(samples)) {
    const server = serverCpu[mode] / s.length;
    console.log(
      `| ${mode} | ${median(s).toFixed(2)} | ${pct(s, 0.95).toFixed(2)} | ${(median(s) / restMedian).toFixed(2)} | ${server.toFixed(3)} | ${(serverCpu[mode] / restServer).toFixed(2)} | ${(clientCpu[mode] / s.length).toFixed(3)} |`,
    );
  }
  await folio.close();
  await peer.close();
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

function startChild(script: string, args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], {
    cwd: ROOT,
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
