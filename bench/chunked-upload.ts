/**
 * Chunked upload throughput on loopback: Folio's begin / PUT part / complete vs @tus/server (FileStore) driven by
 * tus-js-client, and driven by the same `node:http` client code as Folio's parts (so the servers can be compared
 * with nothing different on the client's side); same file (default 200 MiB), same part size (8 MiB), parts sent
 * one after another. With
 * `--parallel N`, each round also uploads with Folio's parts sent N at a time, as the dashboard sends them (3);
 * tus's core protocol has one offset per upload, so it cannot. Both servers run in child processes so their RSS
 * can be read from /proc before, during (peak) and after.
 * `npx tsx bench/chunked-upload.ts [--mib 200] [--rounds 3] [--parallel 3]`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from '../tests/helpers/child-server.js';

const arg = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const PART = 8 << 20;

if (process.argv[2] === '--tus-server') await runTusServer(process.argv[3]);
else await main();

/** Child mode: a bare @tus/server with a FileStore; prints its port. */
async function runTusServer(directory: string): Promise<void> {
  const { Server } = await import('@tus/server');
  const { FileStore } = await import('@tus/file-store');
  const tus = new Server({ path: '/files', datastore: new FileStore({ directory }) });
  const http = createServer((req, res) => void tus.handle(req, res));
  http.listen(0, '127.0.0.1', () => console.log(`tus listening ${(http.address() as AddressInfo).port}`));
}

async function main(): Promise<void> {
  const mib = arg('--mib', 200);
  const rounds = arg('--rounds', 3);
  const parallel = arg('--parallel', 1);
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-chunked-'));
  const source = join(work, 'big.bin');
  const sha256 = await makeFile(source, mib);
  const rows: Row[] = [];
  try {
    const folio = await startFolio(join(work, 'folio-data'));
    const tus = await startTus(join(work, 'tus-data'));
    try {
      for (let round = 1; round <= rounds; round++) {
        rows.push(
          await measure(`Folio chunked #${round}`, folio.pid, () =>
            uploadFolio(folio, source, mib << 20, sha256),
          ),
        );
        if (parallel > 1)
          rows.push(
            await measure(`Folio chunked, ${parallel} parts at a time #${round}`, folio.pid, () =>
              uploadFolio(folio, source, mib << 20, sha256, parallel),
            ),
          );
        rows.push(await measure(`tus #${round}`, tus.pid, () => uploadTus(tus.url, source, mib << 20)));
        rows.push(
          await measure(`tus, Folio's client stack #${round}`, tus.pid, () =>
            uploadTusBare(tus.url, source, mib << 20),
          ),
        );
      }
    } finally {
      folio.child.kill('SIGTERM');
      tus.child.kill('SIGTERM');
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  printTable(mib, rows);
}

type Row = {
  name: string;
  seconds: number;
  mbps: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  /** CPU seconds the server process spent (user + system), from /proc: steadier than wall time on a shared VM. */
  cpu: number;
  /** CPU seconds this process (the client: fetch or tus-js-client, and the file reads) spent meanwhile. */
  clientCpu: number;
  note: string;
};

async function measure(name: string, pid: number, fn: () => Promise<string>): Promise<Row> {
  const rssBefore = rssMb(pid);
  const cpuBefore = cpuSeconds(pid);
  const clientBefore = process.cpuUsage();
  let rssPeak = rssBefore;
  const timer = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(pid));
  }, 20);
  const t = performance.now();
  const note = await fn();
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  const cpu = cpuSeconds(pid) - cpuBefore;
  const { user, system } = process.cpuUsage(clientBefore);
  const clientCpu = (user + system) / 1e6;
  await new Promise((r) => setTimeout(r, 500));
  const mib = arg('--mib', 200);
  return {
    name,
    seconds,
    mbps: mib / seconds,
    rssBefore,
    rssPeak,
    rssAfter: rssMb(pid),
    cpu,
    clientCpu,
    note,
  };
}

/** utime + stime of `pid` in seconds (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8'); // sync: a 20 ms sampler
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

async function makeFile(path: string, mib: number): Promise<string> {
  const file = await open(path, 'w');
  const hash = createHash('sha256');
  const chunk = randomBytes(16 << 20);
  for (let written = 0; written < mib << 20; written += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, (mib << 20) - written));
    hash.update(piece);
    await file.write(piece);
  }
  await file.close();
  return hash.digest('hex');
}

type Folio = { child: ChildProcess; pid: number; url: string; key: string };

async function startFolio(dataDir: string): Promise<Folio> {
  const server = await spawnServer(['--port', '0', '--data-dir', dataDir, '--no-fsync']);
  const signIn = await fetch(server.ownerLink, { redirect: 'manual' });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('folio_session='))!
    .split(';')[0];
  const res = await fetch(`${server.url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', services: ['transcription'] }),
  });
  const { secret } = (await res.json()) as { secret: string };
  return { child: server.proc, pid: server.proc.pid!, url: server.url, key: secret };
}

/** Begin, PUT every 8 MiB part (each read from disk) in order, `parallel` at a time, complete; says where the time went. */
async function uploadFolio(
  folio: Folio,
  path: string,
  size: number,
  sha256: string,
  parallel = 1,
): Promise<string> {
  const headers = { authorization: `Bearer ${folio.key}` };
  const begun = await fetch(`${folio.url}/api/v1/uploads/chunked`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      filename: 'big.bin',
      contentType: 'application/octet-stream',
      size,
      sha256,
      partSize: PART,
    }),
  });
  if (begun.status !== 201) throw new Error(`begin: ${begun.status} ${await begun.text()}`);
  const { uploadId, partCount } = (await begun.json()) as { uploadId: string; partCount: number };
  const file = await open(path, 'r');
  const t = performance.now();
  let next = 0;
  const sender = async () => {
    const buffer = Buffer.alloc(PART);
    for (let i = next++; i < partCount; i = next++) {
      const { bytesRead } = await file.read(buffer, 0, PART, i * PART);
      const res = await send(
        'PUT',
        `${folio.url}/api/v1/uploads/chunked/${uploadId}/parts/${i}`,
        buffer.subarray(0, bytesRead),
        {
          ...headers,
          'content-type': 'application/octet-stream',
        },
      );
      if (res.status !== 200) throw new Error(`part ${i}: ${res.status} ${res.text}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, partCount) }, sender));
  await file.close();
  const partsSeconds = (performance.now() - t) / 1000;
  const c = performance.now();
  const done = await fetch(`${folio.url}/api/v1/uploads/chunked/${uploadId}/complete`, {
    method: 'POST',
    headers,
  });
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${await done.text()}`);
  return `parts ${partsSeconds.toFixed(2)} s, complete (verify, assemble if needed, asset) ${((performance.now() - c) / 1000).toFixed(2)} s`;
}

/**
 * One request with `body` through `node:http`, as tus-js-client sends its PATCHes in Node (its `NodeHttpStack`).
 * Folio's parts went through `fetch` (undici) before, which cost this process 0.5-0.9 s of CPU per 200 MiB against
 * 0.13-0.32 s this way, and that was counted in Folio's time.
 */
function send(
  method: string,
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, 'content-length': body.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString(),
          location: res.headers.location,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function startTus(directory: string): Promise<{ child: ChildProcess; pid: number; url: string }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--tus-server', directory], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /tus listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`tus server exited ${code}`)));
  });
  return { child, pid: child.pid!, url: `http://127.0.0.1:${port}/files` };
}

async function uploadTus(endpoint: string, path: string, size: number): Promise<string> {
  const { Upload } = await import('tus-js-client');
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(createReadStream(path), {
      endpoint,
      chunkSize: PART,
      uploadSize: size,
      retryDelays: [],
      metadata: { filename: 'big.bin' },
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
  return 'PATCH per 8 MiB chunk, no checksum, no reassembly (FileStore appends)';
}

/**
 * The tus core protocol spoken with the same client code as Folio's parts (`send`): create, then one PATCH per 8 MiB
 * chunk read from disk, so the two servers can be compared with nothing different on the client's side.
 */
async function uploadTusBare(endpoint: string, path: string, size: number): Promise<string> {
  const tus = { 'tus-resumable': '1.0.0' };
  const created = await send('POST', endpoint, Buffer.alloc(0), {
    ...tus,
    'upload-length': String(size),
    'upload-metadata': `filename ${Buffer.from('big.bin').toString('base64')}`,
  });
  if (created.status !== 201 || !created.location) throw new Error(`tus create: ${created.status}`);
  const url = new URL(created.location, endpoint).href;
  const file = await open(path, 'r');
  const buffer = Buffer.alloc(PART);
  try {
    for (let offset = 0; offset < size; offset += PART) {
      const { bytesRead } = await file.read(buffer, 0, PART, offset);
      const res = await send('PATCH', url, buffer.subarray(0, bytesRead), {
        ...tus,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      });
      if (res.status !== 204) throw new Error(`tus PATCH at ${offset}: ${res.status} ${res.text}`);
    }
  } finally {
    await file.close();
  }
  return "create + PATCH per 8 MiB chunk through node:http, as Folio's parts are sent";
}

function printTable(mib: number, rows: Row[]): void {
  console.log(`\nChunked upload of ${mib} MiB, ${PART >> 20} MiB parts, sequential, loopback\n`);
  console.log(
    '| run | seconds | MiB/s | server CPU s | client CPU s | server RSS before | peak | after | notes |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.seconds.toFixed(2)} | ${r.mbps.toFixed(0)} | ${r.cpu.toFixed(2)} | ${r.clientCpu.toFixed(2)} | ${r.rssBefore.toFixed(0)} MB | ${r.rssPeak.toFixed(0)} MB | ${r.rssAfter.toFixed(0)} MB | ${r.note} |`,
    );
}
