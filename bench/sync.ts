/**
 * Sync over loopback between two Folio processes (a desktop and a hosted one, file backend, fsync on), beside rsync
 * (daemon mode over TCP on 127.0.0.1) moving the same files as the limit:
 *   1. 1,000 small assets (1–16 KiB): items/s and MB/s of a first sync;
 *   2. one 500 MB audio file: MB/s;
 *   3. a no-op re-sync of 10,000 items: an incremental run and a full re-plan (every record checked with the
 *      server), goal < 2 s; rsync's own no-op pass over the same 10,000 files beside it;
 *   4. 100 diagrams of 3 versions each: versions/s of a first sync, beside publishing the same versions through
 *      the API (every version is checked by the SVG check on the receiving side, as on publishing).
 * Durations are the server's own (the run summary's startedAt → finishedAt).
 * `npx tsx bench/sync.ts [--small 1000] [--big-mb 500] [--noop 10000] [--diagrams 100] [--only small,big]
 * [--link 100,20] [--warm]`; `--link <Mbit/s>,<round trip ms>` sends both sync and rsync through a simulated network
 * link (bench/lib/link.ts) instead of bare loopback. `--warm` first syncs (and rsyncs) another set of small assets,
 * reported as a row of its own: the measured run then meets processes that have run its code before, as a
 * long-running desktop and hosted instance have, rather than code V8 has yet to compile.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wavHeader } from '../server/domains/realtime/wav.js';
import { startChildTestServer } from '../tests/helpers/child-test-server.js';
import { type LinkOptions, startLink } from './lib/link.js';

const arg = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const SMALL = arg('--small', 1000);
const BIG_MB = arg('--big-mb', 500);
const NOOP = arg('--noop', 10_000);
const DIAGRAMS = arg('--diagrams', 100);
/** Which tests run (`--only small,big`): all four by default; noop needs small. */
const ONLY = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1].split(',')
  : ['small', 'big', 'noop', 'diagrams'];
/** fsync on (the default, what a user runs) or off (`--fsync 0`: what the protocol costs without durable writes). */
const FSYNC = process.argv.includes('--fsync') ? arg('--fsync', 0) !== 0 : true;
/** `--link <Mbit/s>,<round trip ms>`: sync and rsync both go through a simulated network link. */
const linkAt = process.argv.indexOf('--link');
const [mbit, rttMs] = linkAt >= 0 ? process.argv[linkAt + 1].split(',').map(Number) : [];
const LINK: LinkOptions | undefined = linkAt >= 0 ? { mbit, rttMs } : undefined;
const WARM = process.argv.includes('--warm');

// biome-ignore lint/suspicious/noExplicitAny: the status JSON is read field by field
type Json = Record<string, any>;
type Row = { test: string; tool: string; items: number; bytes: number; seconds: number };

const work = await mkdtemp(join(tmpdir(), 'folio-bench-sync-'));
const rows: Row[] = [];
const limits = { rateLimitPerMinute: 1e9, rateLimitBurst: 1e9, uploadBytes: 4 * 1024 ** 3 };
// Through a link, the hosted instance's public address is the link's, as behind any proxy.
const linkPort = LINK && (await freePort());
const hosted = await startChildTestServer({
  fsync: FSYNC,
  ...(linkPort && { publicUrl: `http://127.0.0.1:${linkPort}` }),
  limits: { ...limits, rateLimitPerMinute: 1200, rateLimitBurst: 200 },
});
const desktop = await startChildTestServer({ fsync: FSYNC, limits });
const rsyncd = await startRsyncDaemon(join(work, 'rsync-dest'));
const hostedLink = LINK && (await startLink(Number(new URL(hosted.url).port), LINK, linkPort));
if (LINK) console.log(`Through a link of ${LINK.mbit} Mbit/s each way and a ${LINK.rttMs} ms round trip`);
try {
  const desktopKey = await desktop.createKey(['assets', 'transcription', 'diagrams']);
  const hostedKey = await hosted.createKey(['assets', 'transcription', 'diagrams']);
  const session = (path: string, init: RequestInit = {}) =>
    fetch(`${desktop.url}${path}`, {
      ...init,
      headers: { cookie: desktop.owner.cookie, origin: desktop.url, 'content-type': 'application/json' },
    });
  const settings = await session('/api/v1/sync/settings', {
    method: 'PUT',
    body: JSON.stringify({ remoteUrl: hostedLink?.url ?? hosted.url, key: hostedKey, enabled: false }),
  });
  if (settings.status !== 200) throw new Error(`settings: ${await settings.text()}`);

  /** One run through the desktop's own route; resolves to its summary (the server times it). */
  async function sync(full = false): Promise<{ seconds: number; summary: Json }> {
    const before = (await (await session('/api/v1/sync/status')).json()).lastRun?.startedAt;
    const res = await session('/api/v1/sync/run', { method: 'POST', body: JSON.stringify({ full }) });
    if (res.status !== 202) throw new Error(`run: ${res.status} ${await res.text()}`);
    for (;;) {
      const status = (await (await session('/api/v1/sync/status')).json()) as Json;
      const last = status.lastRun;
      if (!status.running && last && last.startedAt !== before) {
        if (!last.ok) throw new Error(`sync failed: ${JSON.stringify(last)}`);
        return { seconds: (Date.parse(last.finishedAt) - Date.parse(last.startedAt)) / 1000, summary: last };
      }
      await new Promise((r) => setTimeout(r, 50)); // each status reads the sync book: light polling
    }
  }

  // 1. Small assets (after a warm-up set of the same kind with --warm).
  const warmUp = WARM
    ? await smallAssets('warm-up', `${SMALL} small assets, warm-up (each process's first)`)
    : [];
  const files = [...warmUp, ...(await smallAssets('small', `${SMALL} small assets${WARM ? ', warm' : ''}`))];

  /** Uploads SMALL new random files to the desktop, syncs them, rsyncs the same files; returns the files. */
  async function smallAssets(name: string, test: string) {
    const dir = join(work, name);
    await mkdir(dir);
    let bytes = 0;
    const made = Array.from({ length: SMALL }, (_, i) => {
      const data = randomBytes(1024 + Math.floor(Math.random() * 15 * 1024));
      bytes += data.length;
      return { name: `${name}-${String(i).padStart(5, '0')}.bin`, bytes: data };
    });
    await Promise.all(made.map((f) => writeFile(join(dir, f.name), f.bytes)));
    await uploadAll(desktop.url, desktopKey, made);
    const run = await sync();
    rows.push({ test, tool: 'Folio sync', items: SMALL, bytes, seconds: run.seconds });
    rows.push({ test, tool: 'rsync -a', items: SMALL, bytes, seconds: await rsyncd.push(dir, name) });
    return made;
  }

  // 2. One large audio file.
  if (ONLY.includes('big')) await bigFile();
  async function bigFile() {
    const bigDir = join(work, 'big');
    await mkdir(bigDir);
    const bigPath = join(bigDir, 'recording.wav');
    const bigBytes = await writeWav(bigPath, BIG_MB * 1e6);
    const form = new FormData();
    form.append('file', await openAsBlob(bigPath, { type: 'audio/wav' }), 'recording.wav');
    const up = await fetch(`${desktop.url}/api/v1/uploads`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${desktopKey}` },
    });
    if (up.status !== 201) throw new Error(`big upload: ${up.status} ${await up.text()}`);
    const big = await sync();
    rows.push({
      test: `one ${BIG_MB} MB audio file`,
      tool: 'Folio sync',
      items: 1,
      bytes: bigBytes,
      seconds: big.seconds,
    });
    rows.push({
      test: `one ${BIG_MB} MB audio file`,
      tool: 'rsync -a',
      items: 1,
      bytes: bigBytes,
      seconds: await rsyncd.push(bigDir, 'big'),
    });
  }

  // 3. No-op re-sync of NOOP items.
  let fullNoop = Number.NaN;
  if (ONLY.includes('noop')) fullNoop = await noopResync();
  async function noopResync() {
    const noopDir = join(work, 'noop');
    await mkdir(noopDir);
    // The workspace already holds the small assets and, after test 2, the large file.
    const held = files.length + (ONLY.includes('big') ? 1 : 0);
    const more = Array.from({ length: NOOP - held }, (_, i) => ({
      name: `n${i}.txt`,
      bytes: Buffer.from(`note ${i} ${randomBytes(8).toString('hex')}`),
    }));
    await uploadAll(desktop.url, desktopKey, more);
    await Promise.all([...files, ...more].map((f) => writeFile(join(noopDir, f.name), f.bytes)));
    const seeded = await sync();
    console.log(`(seeding: ${more.length} more assets synced in ${seeded.seconds.toFixed(1)} s)`);
    await rsyncd.push(noopDir, 'noop');
    const noop: number[] = [];
    const full: number[] = [];
    const rsyncNoop: number[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await sync();
      if (Object.keys(run.summary.counts).length)
        throw new Error(`not a no-op: ${JSON.stringify(run.summary.counts)}`);
      noop.push(run.seconds);
      const again = await sync(true);
      if (again.summary.counts.unchanged !== NOOP)
        throw new Error(`full re-plan: ${JSON.stringify(again.summary.counts)}`);
      full.push(again.seconds);
      rsyncNoop.push(await rsyncd.push(noopDir, 'noop'));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    rows.push({
      test: `no-op re-sync, ${NOOP} items`,
      tool: 'Folio sync (incremental)',
      items: NOOP,
      bytes: 0,
      seconds: median(noop),
    });
    rows.push({
      test: `no-op re-sync, ${NOOP} items`,
      tool: 'Folio sync (full re-plan)',
      items: NOOP,
      bytes: 0,
      seconds: median(full),
    });
    rows.push({
      test: `no-op re-sync, ${NOOP} items`,
      tool: 'rsync -a (no-op)',
      items: NOOP,
      bytes: 0,
      seconds: median(rsyncNoop),
    });
    return median(full);
  }

  // 4. Versioned diagrams: published here (timed: the limit), then synced (timed).
  if (ONLY.includes('diagrams')) await diagrams();
  async function diagrams() {
    const versions = DIAGRAMS * 3;
    const publishStarted = process.hrtime.bigint();
    await publishDiagrams(desktop.url, desktopKey, DIAGRAMS);
    const publishSeconds = Number(process.hrtime.bigint() - publishStarted) / 1e9;
    const pubs = await sync();
    if (pubs.summary.counts.pushed !== versions + DIAGRAMS)
      throw new Error(`diagrams: ${JSON.stringify(pubs.summary.counts)}`);
    const svgBytes = versions * diagramSvg(0, 0).length;
    rows.push({
      test: `${DIAGRAMS} diagrams × 3 versions`,
      tool: 'Folio sync',
      items: versions,
      bytes: svgBytes,
      seconds: pubs.seconds,
    });
    rows.push({
      test: `${DIAGRAMS} diagrams × 3 versions`,
      tool: 'publishing them through the API',
      items: versions,
      bytes: svgBytes,
      seconds: publishSeconds,
    });
  }
  printTable(rows, fullNoop);
} finally {
  await rsyncd.stop();
  await hostedLink?.close();
  await desktop.close();
  await hosted.close();
  await rm(work, { recursive: true, force: true });
}

/** Uploads files with 8 requests in flight. */
async function uploadAll(url: string, key: string, list: Array<{ name: string; bytes: Buffer }>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < list.length) {
        const f = list[next++];
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
        const res = await fetch(`${url}/api/v1/uploads`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${key}` },
        });
        if (res.status !== 201) throw new Error(`upload ${f.name}: ${res.status} ${await res.text()}`);
      }
    }),
  );
}

function diagramSvg(i: number, v: number): string {
  return `<svg viewBox="0 0 420 120"><rect class="node" x="0" y="0" width="180" height="60" rx="8"/><text class="label" x="90" y="30">Step ${i}</text><rect class="node" x="240" y="0" width="180" height="60" rx="8"/><text class="label" x="330" y="30">Version ${v}</text><path class="edge" d="M180 30 L240 30"/></svg>`;
}

/** `count` diagrams of three versions each (a POST and two PUTs), 8 diagrams at a time. */
async function publishDiagrams(url: string, key: string, count: number) {
  const send = async (method: string, path: string, body: Json) => {
    const res = await fetch(`${url}${path}`, {
      method,
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        await send('POST', '/api/v1/diagrams', {
          title: `Flow ${i}`,
          slug: `flow-${i}`,
          svg: diagramSvg(i, 1),
        });
        for (const v of [2, 3]) await send('PUT', `/api/v1/diagrams/flow-${i}`, { svg: diagramSvg(i, v) });
      }
    }),
  );
}

/** A 16-bit mono 16 kHz WAV of `bytes` bytes of noise, written in 8 MiB pieces. */
async function writeWav(path: string, bytes: number): Promise<number> {
  const data = bytes - 44;
  const header = wavHeader(data, 16_000);
  const file = await open(path, 'w');
  await file.write(header);
  for (let left = data; left > 0; left -= 8 << 20) await file.write(randomBytes(Math.min(left, 8 << 20)));
  await file.close();
  return bytes;
}

/** rsync in daemon mode on a free loopback port: the network path sync takes, without encryption. */
async function startRsyncDaemon(dest: string) {
  await mkdir(dest, { recursive: true });
  const port = await freePort();
  const conf = join(work, 'rsyncd.conf');
  await writeFile(
    conf,
    `use chroot = no\nuid = ${process.getuid?.() ?? 0}\ngid = ${process.getgid?.() ?? 0}\npid file = ${join(work, 'rsyncd.pid')}\n[dest]\npath = ${dest}\nread only = no\n`,
  );
  const daemon = spawn(
    'rsync',
    ['--daemon', '--no-detach', `--config=${conf}`, `--port=${port}`, '--address=127.0.0.1'],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 300));
  const link = LINK && (await startLink(port, LINK));
  return {
    /** `rsync -a <dir>/ rsync://127.0.0.1/dest/<name>/` (through the link, if any); resolves to the seconds it took. */
    async push(dir: string, name: string): Promise<number> {
      const started = process.hrtime.bigint();
      const run = spawn('rsync', ['-a', `${dir}/`, `rsync://127.0.0.1:${link?.port ?? port}/dest/${name}/`]);
      let stderr = '';
      run.stderr.on('data', (d) => (stderr += d));
      const status = await new Promise((resolve) => run.once('exit', resolve));
      if (status !== 0) throw new Error(`rsync: ${stderr}`);
      return Number(process.hrtime.bigint() - started) / 1e9;
    },
    async stop() {
      daemon.kill('SIGTERM');
      await link?.close();
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function printTable(list: Row[], fullNoop: number): void {
  const fmt = (n: number, d = 1) => n.toFixed(d);
  console.log('\n| test | tool | items | MB | seconds | items/s | MB/s |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of list)
    console.log(
      `| ${r.test} | ${r.tool} | ${r.items} | ${fmt(r.bytes / 1e6)} | ${fmt(r.seconds, 3)} | ${fmt(r.items / r.seconds, 0)} | ${r.bytes ? fmt(r.bytes / 1e6 / r.seconds) : '–'} |`,
    );
  if (!Number.isNaN(fullNoop))
    console.log(
      `\nGoal: no-op re-sync of ${NOOP} items (full re-plan) < 2 s: ${fmt(fullNoop, 2)} s ${fullNoop < 2 ? '✓' : '✗'}`,
    );
}
