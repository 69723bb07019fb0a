// A hosted instance behind nginx (deploy/nginx, blobs as files): requests/s for GET /api/v1/me with 1, 2 and 3
// nodes, beside one node without a proxy; and a 100 MB file through nginx + X-Accel-Redirect beside nginx serving
// the same file as a plain static file (goal: ≥ 0.9×). PostgreSQL (fsync on) from scripts/hosted/postgres.ts.
//   npx tsx bench/hosted-nodes.ts [--seconds 10] [--connections 32] [--mib 100] [--rounds 5] [--part me|bytes]
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { type Cluster, startCluster } from '../scripts/hosted/cluster.js';
import { startPostgres } from '../scripts/hosted/postgres.js';
import { freePort, isRoot, stopPid, waitForExit, waitForPort } from '../scripts/hosted/processes.js';
import { wrk } from './lib/wrk.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    mib: { type: 'string' },
    rounds: { type: 'string' },
    part: { type: 'string' },
  },
});
const PART = values.part ?? 'all'; // me | bytes | all
const SECONDS = Number(values.seconds ?? 10);
const CONNECTIONS = Number(values.connections ?? 32);
const MIB = Number(values.mib ?? 100);
const ROUNDS = Number(values.rounds ?? 5);
const run = promisify(execFile);

const server = await startPostgres({ fsync: true });
let databases = 0;
async function freshDatabase(): Promise<string> {
  const name = `nodes_${++databases}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server.url.replace(/\/postgres$/, `/${name}`);
}

/** Signs the owner in through nginx and makes a key with every service. */
async function ownerKey(cluster: Cluster): Promise<string> {
  const signedIn = await fetch(cluster.nodes[0]!.ownerLink, { redirect: 'manual' });
  const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const res = await fetch(`${cluster.url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { cookie, origin: cluster.url, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', services: ['assets'] }),
  });
  return ((await res.json()) as { secret: string }).secret;
}

// Rate limits high enough that the bench measures serving, not 429s.
const env = {
  FOLIO_LOG_FORMAT: 'text',
  FOLIO_RATE_LIMIT_PER_MINUTE: '100000000',
  FOLIO_RATE_LIMIT_BURST: '1000000',
};

console.log(
  `GET /api/v1/me with a key, wrk ${CONNECTIONS} connections × ${SECONDS} s (PostgreSQL fsync on, one per run)`,
);
if (PART !== 'bytes') console.log('| setup | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');
for (const nodes of PART === 'bytes' ? [] : [1, 2, 3]) {
  const cluster = await startCluster({ nodes, databaseUrl: await freshDatabase(), env });
  try {
    const key = await ownerKey(cluster);
    const headers = { authorization: `Bearer ${key}` };
    if (nodes === 1) {
      const direct = await wrk(`${cluster.nodes[0]!.url}/api/v1/me`, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        headers,
      });
      console.log(
        `| 1 node, no proxy | ${direct.reqPerSec.toFixed(0)} | ${direct.p50.toFixed(2)} | ${direct.p99.toFixed(2)} | ${direct.non2xx} |`,
      );
    }
    const proxied = await wrk(`${cluster.url}/api/v1/me`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers,
    });
    console.log(
      `| nginx + ${nodes} node${nodes > 1 ? 's' : ''} | ${proxied.reqPerSec.toFixed(0)} | ${proxied.p50.toFixed(2)} | ${proxied.p99.toFixed(2)} | ${proxied.non2xx} |`,
    );
  } finally {
    await cluster.close();
  }
}

// One node with file blobs; the same bytes through Folio (X-Accel-Redirect) and as nginx's own static file.
const cluster = await startCluster({ nodes: 1, databaseUrl: await freshDatabase(), env });
const staticNginx = await startStaticNginx(cluster.nodes[0]!.dataDir);
try {
  const key = await ownerKey(cluster);
  const body = randomBytes(MIB << 20);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(body)], { type: 'application/octet-stream' }), 'big.bin');
  const uploaded = (await (
    await fetch(`${cluster.url}/api/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    })
  ).json()) as { id: string; key: string };
  const me = (await (
    await fetch(`${cluster.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as {
    workspace: { id: string };
  };
  const viaFolio = `${cluster.url}/f/${uploaded.key}`;
  const plain = `${staticNginx.url}/workspaces/${me.workspace.id}/files/${uploaded.id}`;
  const speeds: Record<string, number[]> = { folio: [], plain: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of [
      ['folio', viaFolio],
      ['plain', plain],
    ] as const) {
      const { stdout } = await run('curl', [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{size_download} %{speed_download}',
        url,
      ]);
      const [status, size, speed] = stdout.split(' ').map(Number);
      if (status !== 200 || size !== body.length) throw new Error(`${name}: ${stdout}`);
      speeds[name]!.push(speed! / 2 ** 20);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(`\n${MIB} MiB file, curl on loopback, ${ROUNDS} rounds alternating (MiB/s)`);
  console.log('| path | runs | median | best |');
  console.log('|---|---|---|---|');
  for (const [name, label] of [
    ['folio', 'GET /f/:key via nginx → node → X-Accel-Redirect'],
    ['plain', 'nginx serving the same file statically'],
  ] as const)
    console.log(
      `| ${label} | ${speeds[name]!.map((s) => s.toFixed(0)).join(', ')} | ${median(speeds[name]!).toFixed(0)} |`,
    );
  console.log(`ratio (median): ${(median(speeds.folio!) / median(speeds.plain!)).toFixed(2)}× (goal ≥ 0.9×)`);
} finally {
  await staticNginx.stop();
  await cluster.close();
  await server.stop();
}

/** nginx with nothing but a static location on the data directory: the ceiling for sending those bytes. */
async function startStaticNginx(root: string) {
  const dir = await mkdtemp(join(tmpdir(), 'folio-nginx-static-'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${join(dir, t)};`)
    .join(' ');
  await writeFile(
    join(dir, 'nginx.conf'),
    `${isRoot() ? 'user root;' : ''} worker_processes 2; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')};
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; default_type application/octet-stream; ${temp}
  server { listen 127.0.0.1:${port}; location / { root ${root}; } } }`,
  );
  const child = (await import('node:child_process')).spawn(
    '/usr/sbin/nginx',
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    { detached: true, stdio: 'ignore' },
  );
  child.unref();
  await waitForPort(port, 10_000, 'nginx').catch(async (error) => {
    throw new Error(`${error.message}\n${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      stopPid(child.pid!, 'SIGTERM');
      await waitForExit(child.pid!, 5_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
