/**
 * Upload ingest of a large file (default 1 GiB): Folio POST /api/v1/uploads (multipart via curl -F) vs a bare node:http
 * server streaming a PUT body to disk (curl -T). Both run in this process, one after the other, so RSS growth is
 * comparable. Goal: Folio's RSS growth < 64 MB. `npx tsx bench/assets-ingest.ts [--mib 1024]`
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { startTestServer } from '../tests/helpers/server.js';

const run = promisify(execFile);
const mib = Number(process.argv[process.argv.indexOf('--mib') + 1]) || 1024;
const work = await mkdtemp(join(tmpdir(), 'folio-bench-ingest-'));
const source = join(work, 'big.bin');

async function makeFile(): Promise<void> {
  const file = await open(source, 'w');
  const chunk = randomBytes(16 << 20);
  for (let written = 0; written < mib << 20; written += chunk.length) await file.write(chunk);
  await file.close();
}

/** Runs `fn` while sampling RSS every 20 ms; returns seconds taken and peak RSS growth in MB. */
async function measured(fn: () => Promise<void>): Promise<{ seconds: number; rssGrowthMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t = performance.now();
  await fn();
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds: (performance.now() - t) / 1000, rssGrowthMb: (peak - base) / 1e6 };
}

async function curl(args: string[]): Promise<string> {
  const { stdout } = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args], {
    maxBuffer: 1 << 20,
  });
  return stdout;
}

await makeFile();
const rows: string[] = [];
const bare = createServer((req, res) => {
  pipeline(req, createWriteStream(join(work, 'bare-out.bin'))).then(
    () => res.writeHead(201).end(),
    () => res.writeHead(500).end(),
  );
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
const srv = await startTestServer({ limits: { uploadBytes: (mib + 1) << 20 } as never });
const key = await srv.createKey({ services: ['assets'] });
try {
  let status = '';
  const b = await measured(async () => {
    status = await curl(['-T', source, bareUrl]);
  });
  rows.push(
    `| bare node:http PUT → createWriteStream (curl -T) | ${status} | ${(mib / b.seconds).toFixed(0)} MB/s | ${b.rssGrowthMb.toFixed(0)} MB |`,
  );
  await rm(join(work, 'bare-out.bin'), { force: true });
  const f = await measured(async () => {
    status = await curl([
      '-H',
      `Authorization: Bearer ${key}`,
      '-F',
      `file=@${source}`,
      `${srv.url}/api/v1/uploads`,
    ]);
  });
  rows.push(
    `| Folio POST /api/v1/uploads (curl -F, SHA-256, type detection) | ${status} | ${(mib / f.seconds).toFixed(0)} MB/s | ${f.rssGrowthMb.toFixed(0)} MB |`,
  );
  console.log(`\nUpload ingest of ${mib} MiB (loopback; MB/s = MiB / wall time)\n`);
  console.log('| server | status | throughput | server RSS growth |\n|---|---|---|---|');
  for (const r of rows) console.log(r);
} finally {
  bare.close();
  await srv.close();
  await rm(work, { recursive: true, force: true });
}
process.exit(0);
