// A throw-away S3-compatible server: OpenStack Swift (Debian: swift-proxy swift-object swift-container
// swift-account memcached) with its s3api middleware and tempauth, one device in a temp directory, every server
// on a free port and run as the `swift` user when we are root. `npx tsx scripts/hosted/swift.ts` starts one.
// Rings are built with Debian's /usr/bin/python3 (its swift module). Swift always reads /etc/swift/swift.conf (hash prefix, policies); rings and server configs live in our dir.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, giveTo, spawnDetached, stopPid, waitForPort } from './processes.js';

export type SwiftServer = {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  dir: string;
  pids: number[];
  startMs: number;
  stop(): Promise<void>;
};

const USER = 'swift';
const ACCOUNT = 'folio';
const KEY_USER = 'tester';
const SECRET = 'folio-test-secret';

const storageConf = (kind: 'object' | 'container' | 'account', port: number, dir: string) => `
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${dir}/etc
devices = ${dir}/srv
mount_check = false
disable_fallocate = true
fallocate_reserve = 0
log_level = WARNING

[pipeline:main]
pipeline = ${kind}-server

[app:${kind}-server]
use = egg:swift#${kind}
`;

// s3api must come before tempauth and slo after s3api, or s3api silently turns multipart uploads off.
const proxyConf = (port: number, memcachePort: number, dir: string) => `
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${dir}/etc
log_level = WARNING

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk s3api tempauth copy slo dlo versioned_writes proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:tempauth]
use = egg:swift#tempauth
user_${ACCOUNT}_${KEY_USER} = ${SECRET} .admin

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachePort}

${[
  'catch_errors',
  'gatekeeper',
  'healthcheck',
  'proxy-logging',
  'listing_formats',
  'bulk',
  'copy',
  'slo',
  'dlo',
  'versioned_writes',
]
  .map((name) => `[filter:${name}]\nuse = egg:swift#${name.replace('-', '_')}\n`)
  .join('\n')}
`;

// One process building the three one-device rings takes 0.5 s; swift-ring-builder nine times takes ~6 s.
const buildRings = (dir: string, ports: Record<string, number>) => `
from swift.common.ring import RingBuilder
for name, port in ${JSON.stringify(ports)}.items():
    builder = RingBuilder(6, 1, 1)
    builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': port, 'device': 'd1', 'weight': 100})
    builder.rebalance()
    builder.get_ring().save('${dir}/etc/%s.ring.gz' % name)
`;

export async function startSwift(): Promise<SwiftServer> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'folio-swift-'));
  await mkdir(join(dir, 'etc'));
  await mkdir(join(dir, 'srv', 'd1'), { recursive: true });
  for (const path of [dir, join(dir, 'etc'), join(dir, 'srv'), join(dir, 'srv', 'd1')])
    await giveTo(USER, path);
  const [proxy, object, container, account, memcache] = await Promise.all(
    Array.from({ length: 5 }, freePort),
  );
  await promisify(execFile)('/usr/bin/python3', ['-c', buildRings(dir, { object, container, account })]);
  const pids: number[] = [];
  const stop = async () => {
    for (const pid of pids) stopPid(pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  try {
    pids.push(
      spawnDetached(
        USER,
        'memcached',
        ['-l', '127.0.0.1', '-p', String(memcache), '-U', '0', '-m', '16'],
        join(dir, 'memcached.log'),
      ),
    );
    for (const [kind, port] of [
      ['object', object],
      ['container', container],
      ['account', account],
    ] as const) {
      await writeFile(join(dir, 'etc', `${kind}-server.conf`), storageConf(kind, port, dir));
      pids.push(
        spawnDetached(
          USER,
          `swift-${kind}-server`,
          [join(dir, 'etc', `${kind}-server.conf`), '-v'],
          join(dir, `${kind}.log`),
        ),
      );
    }
    await writeFile(join(dir, 'etc', 'proxy-server.conf'), proxyConf(proxy, memcache, dir));
    pids.push(
      spawnDetached(
        USER,
        'swift-proxy-server',
        [join(dir, 'etc', 'proxy-server.conf'), '-v'],
        join(dir, 'proxy.log'),
      ),
    );
    await Promise.all(
      [proxy, object, container, account, memcache].map((port) => waitForPort(port, 20_000, 'Swift')),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${proxy}`,
    region: 'us-east-1',
    accessKeyId: `${ACCOUNT}:${KEY_USER}`,
    secretAccessKey: SECRET,
    dir,
    pids,
    startMs: performance.now() - started,
    stop,
  };
}

/** Stops a Swift another process started, from the pids and directory `startSwift` returned. */
export async function stopSwiftAt(dir: string, pids: number[]): Promise<void> {
  for (const pid of pids) stopPid(pid, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startSwift();
  console.log(`Swift (s3api) started in ${server.startMs.toFixed(0)} ms`);
  console.log(`FOLIO_S3_ENDPOINT=${server.endpoint}`);
  console.log(`FOLIO_S3_ACCESS_KEY_ID=${server.accessKeyId}`);
  console.log(`FOLIO_S3_SECRET_ACCESS_KEY=${server.secretAccessKey}`);
  console.log(`FOLIO_S3_REGION=${server.region}`);
  const stop = () => server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
