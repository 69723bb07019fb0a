/**
 * What people install, measured (issue #34): the server's start from the built tree the hosted image and the
 * packaged app run (dist/server/main.js with production dependencies only, assembled by scripts/image/build.sh)
 * beside the checkout's (`tsx server/main.ts`), to its first answer of /ready and of the first page of assets; and
 * the sizes of what ships. Each start on an empty data folder, interleaved, median of --runs.
 * Usage: npx tsx bench/packaged-start.ts [--runs 7] [--tree /tmp/folio-image/node]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const runs = Number(flag('--runs', '7'));
const tree = flag('--tree', join(tmpdir(), 'folio-bench-image', 'node'));

execFileSync('bash', [join(root, 'scripts/image/build.sh'), tree], {
  env: { ...process.env, FOLIO_WHISPER_CPU: 'host' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

type Start = { ready: number; firstPage: number };

async function startOnce(command: string, args: string[], cwd: string): Promise<Start> {
  const data = mkdtempSync(join(tmpdir(), 'folio-bench-start-'));
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, FOLIO_DATA_DIR: data, FOLIO_PORT: '0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = await listening(child);
    let ready = 0;
    while (!ready) {
      const res = await fetch(`${url}/ready`).catch(() => undefined);
      if (res?.ok) ready = performance.now() - started;
    }
    const page = await fetch(`${url}/api/v1/assets`); // 401 without a key: routed, authenticated, answered
    await page.arrayBuffer();
    return { ready, firstPage: performance.now() - started };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(data, { recursive: true, force: true });
  }
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const url = /^Folio listening on (\S+)$/.exec(line)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const built: Start[] = [];
const checkout: Start[] = [];
for (let i = 0; i < runs; i++) {
  built.push(await startOnce(process.execPath, [join(tree, 'dist/server/main.js')], tree));
  checkout.push(
    await startOnce(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], root),
  );
}

const size = (path: string) => execFileSync('du', ['-sh', path], { encoding: 'utf8' }).split('\t')[0];
console.log(`node ${process.version}, ${runs} starts each, interleaved, empty data folder`);
console.log('| start | to /ready (median) | to the first assets page (median) |');
console.log('|---|---|---|');
for (const [name, starts] of [
  ['built tree (node dist/server/main.js, production dependencies)', built],
  ['checkout (tsx server/main.ts)', checkout],
] as const)
  console.log(
    `| ${name} | ${median(starts.map((s) => s.ready)).toFixed(0)} ms | ${median(starts.map((s) => s.firstPage)).toFixed(0)} ms |`,
  );
console.log(
  `sizes: built tree ${size(tree)} (node_modules ${size(join(tree, 'node_modules'))}, dist ${size(join(tree, 'dist'))}, worker ${size(join(tree, 'build/whisper'))}); checkout node_modules ${size(join(root, 'node_modules'))}`,
);
