/**
 * Assets serving bench, peers beside Folio in one run : /f and /audio vs nginx (sendfile, 1 worker)
 * and bare node:http on a 100 MB and a 1 MB file, a Range request, /img/thumb cold vs sharp alone on a 4000×3000 JPEG,
 * and warm (cached) /img/thumb vs /f on a file of the same size. `npx tsx bench/assets-serve.ts [--seconds 5] [--rounds 3]`
 */
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Create } from 'sharp';
import { startTestServer } from '../tests/helpers/server.js';
import { startBareNode, startNginx, type WrkResult, wrk } from './assets-peers.js';

const arg = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || fallback;
const seconds = arg('seconds', 5);
const rounds = arg('rounds', 3);
const work = await mkdtemp(join(tmpdir(), 'folio-bench-assets-'));
await chmod(work, 0o755); // nginx workers run unprivileged and must traverse it
const peerRoot = join(work, 'peer');
await mkdir(peerRoot, { recursive: true });

const srv = await startTestServer({ limits: { uploadBytes: 2 << 30 } as never });
const { workspaceId } = await srv.createKeyDetails({ services: ['assets'] });
const uploads = srv.deps.uploads;

/** A WAV of `bytes` total (header + noise) so the same file is valid for /f and /audio. */
async function wavFile(name: string, bytes: number): Promise<string> {
  const data = randomBytes(bytes - 44);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(bytes - 8, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44100, 24);
  header.writeUInt32LE(44100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(bytes - 44, 40);
  const path = join(peerRoot, name);
  await writeFile(path, Buffer.concat([header, data]));
  return path;
}

async function asAsset(path: string, filename: string) {
  const copy = join(work, `in-${filename}`);
  await copyFile(path, copy);
  return uploads.createFromFile(workspaceId, { path: copy, filename });
}

const rows: { test: string; server: string; result: string; ratio?: string }[] = [];
const fmt = (r: WrkResult) => `${r.reqPerSec.toFixed(0)} req/s, ${r.mbPerSec.toFixed(0)} MB/s`;

/** Median of `rounds` wrk runs per server, servers interleaved within each round so drift hits all alike. */
async function measure(
  urls: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Record<string, WrkResult>> {
  const runs: Record<string, WrkResult[]> = Object.fromEntries(Object.keys(urls).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, url] of Object.entries(urls)) runs[name].push(await wrk(url, headers, seconds));
  }
  const median = (xs: WrkResult[]) =>
    [...xs].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, median(xs)]));
}

async function serveRows(label: string, name: string, size: number, nginxUrl: string, bareUrl: string) {
  const path = await wavFile(name, size);
  const asset = await asAsset(path, name);
  const m = await measure({
    nginx: `${nginxUrl}/${name}`,
    bare: `${bareUrl}/${name}`,
    f: `${srv.url}/f/${asset.key}`,
    audio: `${srv.url}/audio/${asset.key}`,
  });
  const key = size > 10e6 ? 'mbPerSec' : 'reqPerSec';
  const vs = (r: WrkResult) =>
    `${(r[key] / m.nginx[key]).toFixed(2)}× nginx, ${(r[key] / m.bare[key]).toFixed(2)}× bare node`;
  rows.push({ test: label, server: 'nginx (sendfile, 1 worker)', result: fmt(m.nginx) });
  rows.push({
    test: label,
    server: 'bare node:http + createReadStream',
    result: fmt(m.bare),
    ratio: `${(m.bare[key] / m.nginx[key]).toFixed(2)}× nginx`,
  });
  rows.push({ test: label, server: 'Folio /f/:key', result: fmt(m.f), ratio: vs(m.f) });
  rows.push({ test: label, server: 'Folio /audio/:key', result: fmt(m.audio), ratio: vs(m.audio) });
  return asset;
}

async function rangeRows(name: string, key: string, nginxUrl: string, bareUrl: string) {
  const m = await measure(
    { nginx: `${nginxUrl}/${name}`, audio: `${srv.url}/audio/${key}` },
    { Range: 'bytes=100000-599999' },
  );
  rows.push({ test: 'Range 500 kB of 1 MB', server: 'nginx', result: fmt(m.nginx) });
  rows.push({
    test: 'Range 500 kB of 1 MB',
    server: 'Folio /audio/:key',
    result: fmt(m.audio),
    ratio: `${(m.audio.reqPerSec / m.nginx.reqPerSec).toFixed(2)}× nginx`,
  });
  void bareUrl;
}

async function imageRows() {
  const source = join(work, 'photo.jpg');
  const noise = { width: 4000, height: 3000, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } };
  await sharp({ create: noise as Create }) // noise needs no background (sharp docs); the type still asks for one
    .jpeg({ quality: 90 })
    .toFile(source);
  const runs = 7;
  const sharpMs: number[] = [];
  const folioMs: number[] = [];
  let lastKey = '';
  for (let i = 0; i < runs; i++) {
    // distinct files each time (no libvips cache hit), sharp alone and Folio alternating so load drift hits both
    const copy = join(work, `sharp-${i}.jpg`);
    await copyFile(source, copy);
    let t = performance.now();
    await sharp(copy, { limitInputPixels: 50e6, failOn: 'error' })
      .rotate()
      .resize({ width: 256, height: 256, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82 })
      .toFile(join(work, `sharp-${i}-out.jpg`));
    sharpMs.push(performance.now() - t);
    const asset = await asAsset(source, `photo-${i}.jpg`);
    t = performance.now();
    await (await fetch(`${srv.url}/img/thumb/${asset.key}`)).arrayBuffer();
    folioMs.push(performance.now() - t);
    lastKey = asset.key;
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  rows.push({
    test: '4000×3000 JPEG → thumb, cold (median of 7)',
    server: 'sharp alone, in-process',
    result: `${med(sharpMs).toFixed(0)} ms`,
  });
  rows.push({
    test: '4000×3000 JPEG → thumb, cold (median of 7)',
    server: 'Folio GET /img/thumb/:key',
    result: `${med(folioMs).toFixed(0)} ms`,
    ratio: `${(med(folioMs) / med(sharpMs)).toFixed(2)}× sharp`,
  });
  const thumb = Buffer.from(await (await fetch(`${srv.url}/img/thumb/${lastKey}`)).arrayBuffer());
  const thumbPath = join(work, 'thumb.jpg');
  await writeFile(thumbPath, thumb);
  const same = await asAsset(thumbPath, 'thumb.jpg');
  const warm = await wrk(`${srv.url}/img/thumb/${lastKey}`, {}, seconds);
  const f = await wrk(`${srv.url}/f/${same.key}`, {}, seconds);
  const label = `warm thumb (${(thumb.length / 1024).toFixed(0)} KiB)`;
  rows.push({ test: label, server: 'Folio /f/:key, same bytes', result: fmt(f) });
  rows.push({
    test: label,
    server: 'Folio /img/thumb/:key (cached)',
    result: fmt(warm),
    ratio: `${(warm.reqPerSec / f.reqPerSec).toFixed(2)}× /f`,
  });
}

try {
  const nginx = await startNginx(peerRoot, join(work, 'nginx'));
  const bare = await startBareNode(peerRoot);
  try {
    await serveRows('100 MB file', 'big.wav', 100 * 1024 * 1024, nginx.url, bare.url);
    const small = await serveRows('1 MB file', 'small.wav', 1024 * 1024, nginx.url, bare.url);
    await rangeRows('small.wav', small.key, nginx.url, bare.url);
    await imageRows();
  } finally {
    await nginx.stop();
    bare.server.close();
  }
  console.log(`\nAssets serving (wrk -c4 -t2 -d${seconds}s, loopback, files in page cache)\n`);
  console.log('| test | server | result | ratio |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.test} | ${r.server} | ${r.result} | ${r.ratio ?? ''} |`);
} finally {
  await srv.close();
  await rm(work, { recursive: true, force: true });
}
process.exit(0);
