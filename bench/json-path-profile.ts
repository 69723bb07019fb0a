/**
 * Where the JSON path's time goes (bench/README.md "Foundation"): a V8 CPU profile of Folio's server thread while
 * wrk drives `GET /api/v1/me` with a key, then (a fresh server) `GET /api/v1/assets?limit=50` over 10,000 assets.
 * Prints, per target, the requests served, the non-idle thread time per request, and the functions and areas
 * (our folders, packages, Node internals) with the most self time.
 * `npx tsx bench/json-path-profile.ts [--seconds 10] [--assets 10000]`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CpuSummary, summarizeCpuProfile } from './lib/cpu-profile.js';
import { wrk } from './lib/wrk.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const argOf = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const seconds = Number(argOf('seconds')) || 10;
const assetCount = Number(argOf('assets') ?? 10_000);
const work = await mkdtemp(join(tmpdir(), 'folio-bench-profile-'));

type Started = { proc: ChildProcess; url: string; key: string };

function startFolio(name: string, profile: string): Promise<Started> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/folio-child.ts', join(work, name), '1', '0', String(assetCount)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FOLIO_CPU_PROFILE: profile } },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"url"'));
      if (line) resolve({ proc, ...(JSON.parse(line) as { url: string; key: string }) });
    });
    proc.stderr!.on('data', (d) => (out += d));
    proc.once('exit', (code) => reject(new Error(`folio-child exited ${code}:\n${out}`)));
  });
}

async function profileOf(name: string, path: string): Promise<{ requests: number; summary: CpuSummary }> {
  const profile = join(work, `${name}.cpuprofile`);
  const folio = await startFolio(name, profile);
  const headers = { authorization: `Bearer ${folio.key}` };
  const run = await wrk(`${folio.url}${path}`, { connections: 10, seconds, headers });
  if (run.non2xx) throw new Error(`${path} answered ${run.non2xx} non-2xx`);
  const exited = new Promise((r) => folio.proc.once('exit', r));
  folio.proc.kill('SIGTERM');
  await exited;
  return { requests: run.requests, summary: await summarizeCpuProfile(profile, [ROOT]) };
}

function print(target: string, { requests, summary }: { requests: number; summary: CpuSummary }) {
  const idle = summary.byArea.find((a) => a.area === '(idle)')?.percent ?? 0;
  const busyUs = (1000 * summary.totalMs * (1 - idle / 100)) / requests;
  console.log(`\n### ${target}\n`);
  console.log(
    `${requests} requests in ${seconds} s; ${busyUs.toFixed(0)} µs of non-idle thread time per request\n`,
  );
  console.log('| self % | function | where |\n|---|---|---|');
  for (const s of summary.top) console.log(`| ${s.percent.toFixed(1)} | ${s.name} | ${s.where} |`);
  console.log('\n| self % | area |\n|---|---|');
  for (const a of summary.byArea) console.log(`| ${a.percent.toFixed(1)} | ${a.area} |`);
}

try {
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(`${new Date().toISOString()}, Node ${process.version}, load average at start ${load()}`);
  print('GET /api/v1/me (key)', await profileOf('me', '/api/v1/me'));
  print(
    `GET /api/v1/assets?limit=50 (key, ${assetCount} assets)`,
    await profileOf('list', '/api/v1/assets?limit=50'),
  );
  console.log(`\nload average at end ${load()}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
