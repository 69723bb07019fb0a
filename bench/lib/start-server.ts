// One start of a built server (`node dist/server/main.js` of a tree) on a data folder, timed from the spawn: to its
// "listening" line, to the first 200 of /ready, /api/v1/me and the first page of assets (asked together, as the
// dashboard does), with the longest event-loop stall and the peak RSS its preloaded monitor (loop-delay.mjs) saw.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MONITOR = fileURLToPath(new URL('./loop-delay.mjs', import.meta.url));

export type StartFigures = {
  listening: number;
  ready: number;
  me: number;
  firstPage: number;
  maxStallMs: number;
  /** The longest stall once the server listens (the whole life's includes loading the modules). */
  servingStallMs: number;
  peakRssMb: number;
};

export type RunningServer = {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then the monitor's figures for the whole life of the process. */
  stop(): Promise<{ maxMs: number; p99Ms: number; servingMaxMs: number; peakRssMb: number }>;
};

/** Starts `tree`'s built server on `dataDir`; resolves once it prints its listening line. */
export async function spawnBuilt(
  tree: string,
  dataDir: string,
): Promise<RunningServer & { startedAt: number; listeningAt: number }> {
  const startedAt = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', MONITOR, join(tree, 'dist/server/main.js'), '--port', '0', '--data-dir', dataDir],
    { cwd: tree, env: { ...process.env, FOLIO_LOG_FORMAT: 'text' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let monitor = '';
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    if (line.startsWith('loop-delay ')) monitor = line.slice('loop-delay '.length);
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const found = /^Folio listening on (\S+)$/.exec(line)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
  });
  const listeningAt = performance.now();
  return {
    url,
    child,
    startedAt,
    listeningAt,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(monitor || '{"maxMs":-1,"p99Ms":-1,"servingMaxMs":-1,"peakRssMb":-1}');
    },
  };
}

/** Asks until it gets a 200; answers when it did, on the spawn's clock. */
async function firstOk(url: string, headers: Record<string, string>, startedAt: number): Promise<number> {
  for (;;) {
    const res = await fetch(url, { headers }).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.ok) return performance.now() - startedAt;
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function timeStart(tree: string, dataDir: string, key: string): Promise<StartFigures> {
  const server = await spawnBuilt(tree, dataDir);
  const auth = { authorization: `Bearer ${key}` };
  const [ready, me, firstPage] = await Promise.all([
    firstOk(`${server.url}/ready`, {}, server.startedAt),
    firstOk(`${server.url}/api/v1/me`, auth, server.startedAt),
    firstOk(`${server.url}/api/v1/assets?limit=50`, auth, server.startedAt),
  ]);
  // Sweeps run after listening: let them finish inside the monitored life before stopping.
  await new Promise((r) => setTimeout(r, 3000));
  const { maxMs, servingMaxMs, peakRssMb } = await server.stop();
  return {
    listening: server.listeningAt - server.startedAt,
    ready,
    me,
    firstPage,
    maxStallMs: maxMs,
    servingStallMs: servingMaxMs,
    peakRssMb,
  };
}
