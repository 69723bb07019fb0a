// Compaction under a stream of uploads, measured in its own process on the store of `tree` (this checkout or an
// older commit's worktree): `node --import tsx bench/lib/compaction-child.ts <tree> <dataDir> <assets> <seconds>`.
// Seeds `assets` asset rows, each in its own unit of work as an upload writes it, then keeps a paced stream of
// such units (1,000 a second) with a plain write (an asset's rename, as a PATCH) every 20 ms, for `seconds` and
// until a snapshot has been written (at most a minute), and prints one JSON line: the plain writes' and the units'
// latency (p50, p99, max), the longest event-loop stall, RSS before the stream and at its peak, the largest the
// journals grew, and how many snapshots were written. Without fsync: what is measured is the event loop's share.

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../server/log.js';
import { benchAssetRow } from './asset-row.js';

const [tree, dataDir, assetsArg, secondsArg] = process.argv.slice(2);
const count = Number(assetsArg);
const seconds = Number(secondsArg);
const { openFileStore } = (await import(
  join(tree, 'server/store/file/store.ts')
)) as typeof import('../../server/store/file/store.js');
const { assetsCollection, searchTextOf } = (await import(
  join(tree, 'server/domains/assets/collections.ts')
)) as typeof import('../../server/domains/assets/collections.js');

const WS = 'ws_bench';
const db = join(dataDir, 'workspaces', WS, 'db');
const store = await openFileStore({ dataDir, fsync: false, log: silentLogger });

const assetRow = (n: number) =>
  benchAssetRow(n, { key: (k) => `k${String(k).padStart(20, '0')}`, searchTextOf });
const upload = (n: number) =>
  store.unitOfWork(WS, async (tx) => {
    await tx.collection(assetsCollection).insert(assetRow(n));
  });

for (let n = 0; n < count; n += 500) await Promise.all(Array.from({ length: 500 }, (_, j) => upload(n + j)));

async function journalBytes(): Promise<{ journals: number; snapshot: number }> {
  let journals = 0;
  let snapshot = 0;
  for (const name of await readdir(db).catch(() => [] as string[])) {
    const size = await stat(join(db, name)).then(
      (s) => s.size,
      () => 0,
    );
    if (name === 'assets.log' || name.startsWith('.assets.log.')) journals += size;
    if (name === 'assets.json') snapshot = size;
  }
  return { journals, snapshot };
}

(globalThis as { gc?: () => void }).gc?.();
await sleep(500);
const steadyRss = process.memoryUsage.rss();
let peakRss = steadyRss;
let peakJournal = 0;
let snapshots = 0;
let lastSnapshot = (await journalBytes()).snapshot;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const plain: number[] = [];
const units: number[] = [];
const assets = store.collection(assetsCollection, WS);
const started = performance.now();
const enough = () =>
  performance.now() - started > 60_000 || (performance.now() - started > seconds * 1000 && snapshots > 0);
const sampler = (async () => {
  while (!enough()) {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    const { journals, snapshot } = await journalBytes();
    peakJournal = Math.max(peakJournal, journals);
    if (snapshot !== lastSnapshot) snapshots++;
    lastSnapshot = snapshot;
    await sleep(50);
  }
})();
const stream = (async () => {
  let n = count;
  const inFlight = new Set<Promise<void>>();
  while (!enough()) {
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const done: Promise<void> = upload(n++).then(() => {
        units.push(performance.now() - started);
        inFlight.delete(done);
      });
      inFlight.add(done);
    }
    await sleep(10);
  }
  await Promise.all(inFlight);
})();
const renames = (async () => {
  for (let i = 0; !enough(); i++) {
    const started = performance.now();
    await assets.update(assetRow(i % count).id, { displayName: `Renamed ${i}` });
    plain.push(performance.now() - started);
    await sleep(20);
  }
})();
await Promise.all([sampler, stream, renames]);
delay.disable();
await store.close();

const quantile = (values: number[], q: number) =>
  values.length
    ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]
    : 0;
const figures = (values: number[]) => ({
  p50: Math.round(quantile(values, 0.5)),
  p99: Math.round(quantile(values, 0.99)),
  max: Math.round(Math.max(0, ...values)),
  n: values.length,
});
console.log(
  JSON.stringify({
    plainWrite: figures(plain),
    unit: figures(units),
    maxStallMs: Math.round(delay.max / 1e6),
    steadyRssMb: Math.round(steadyRss / 2 ** 20),
    peakRssMb: Math.round(peakRss / 2 ** 20),
    peakJournalMb: Number((peakJournal / 2 ** 20).toFixed(1)),
    snapshots,
    seconds: Math.round((performance.now() - started) / 1000),
  }),
);
