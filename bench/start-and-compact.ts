/**
 * Issue #37 items 1 and 2, measured: how long the built server (`node dist/server/main.js`) takes from its spawn to
 * listening and to its first answers (/ready, /api/v1/me and the first page of assets, asked together) on a library
 * of 0, 10,000 and 100,000 assets (warm cache), with the longest event-loop stall and peak RSS of its first seconds
 * (start and start-up sweeps); then compaction under a stream of uploads (bench/lib/compaction-child.ts): the plain
 * writes' and units' latency, the longest stall, RSS, and how large the journals grew. With `--before <tree>` (a
 * worktree of an older commit, its node_modules linked) each figure is taken on both, interleaved.
 * Usage: npx tsx bench/start-and-compact.ts [--before /tmp/startup-before] [--runs 3] [--sizes 0,10000,100000]
 *        [--compact-assets 100000] [--seconds 5]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StartFigures, timeStart } from './lib/start-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const before = flag('--before', '');
const runs = Number(flag('--runs', '3'));
const sizes = flag('--sizes', '0,10000,100000').split(',').map(Number);
const compactAssets = Number(flag('--compact-assets', '100000'));
const seconds = flag('--seconds', '5');
const work = join(tmpdir(), 'folio-bench-start-and-compact');
const trees = [...(before ? [['before', before]] : []), ['after', root]] as const;

const node = (args: string[], cwd = root) =>
  execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
for (const [, tree] of trees)
  node([join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build-server.ts'], tree);

/** Each tree's own library of `count` (its own format), seeded once and kept for later runs. */
function library(label: string, tree: string, count: number): { dir: string; key: string } {
  const dir = join(work, `${label}-${count}`);
  const keyFile = `${dir}.json`;
  if (!existsSync(keyFile)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(keyFile, node(['--import', 'tsx', 'bench/lib/seed-library.ts', tree, dir, String(count)]));
  }
  return { dir, key: (JSON.parse(readFileSync(keyFile, 'utf8')) as { key: string }).key };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
const pair = (figures: Record<string, StartFigures[]>, pick: (f: StartFigures) => number, unit = ms) =>
  trees.map(([label]) => unit(median(figures[label].map(pick)))).join(' → ');

console.log(`node ${process.version}, ${runs} starts each (median), interleaved; load ${loadAverage()}`);
console.log(`figures are ${trees.map(([label]) => label).join(' → ')}`);
console.log(
  '| assets | to listening | to /ready | to /api/v1/me | to the first page | longest stall | longest once listening | peak RSS |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const count of sizes) {
  const libraries = Object.fromEntries(trees.map(([label, tree]) => [label, library(label, tree, count)]));
  const figures: Record<string, StartFigures[]> = Object.fromEntries(trees.map(([label]) => [label, []]));
  for (let i = 0; i < runs; i++)
    for (const [label, tree] of trees)
      figures[label].push(await timeStart(tree, libraries[label].dir, libraries[label].key));
  console.log(
    `| ${count.toLocaleString('en')} | ${pair(figures, (f) => f.listening)} | ${pair(figures, (f) => f.ready)} | ${pair(figures, (f) => f.me)} | ${pair(figures, (f) => f.firstPage)} | ${pair(figures, (f) => f.maxStallMs)} | ${pair(figures, (f) => f.servingStallMs)} | ${pair(
      figures,
      (f) => f.peakRssMb,
      (v) => `${v} MB`,
    )} |`,
  );
}

console.log(
  `\ncompaction: ${compactAssets.toLocaleString('en')} assets seeded by units, then a stream of them`,
);
console.log(
  '| tree | plain write p50 / p99 / max | unit p50 / p99 | longest stall | RSS steady → peak | journals at most | snapshots |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [label, tree] of trees) {
  const dir = join(work, `compact-${label}`);
  rmSync(dir, { recursive: true, force: true });
  const out = node([
    '--expose-gc',
    '--import',
    'tsx',
    'bench/lib/compaction-child.ts',
    tree,
    dir,
    String(compactAssets),
    seconds,
  ]);
  const f = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `| ${label} | ${f.plainWrite.p50} / ${f.plainWrite.p99} / ${f.plainWrite.max} ms | ${f.unit.p50} / ${f.unit.p99} ms | ${f.maxStallMs} ms | ${f.steadyRssMb} → ${f.peakRssMb} MB (${(f.peakRssMb / f.steadyRssMb).toFixed(2)}×) | ${f.peakJournalMb} MB | ${f.snapshots} in ${f.seconds} s |`,
  );
}
console.log(`load after: ${loadAverage()}`);

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
