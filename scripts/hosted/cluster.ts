// N Folio nodes (`server/main.ts` processes, as deployed) sharing one PostgreSQL database and one bucket (or one
// data directory), behind nginx with the documented configuration: the multi-node test and the scaling bench.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Settings } from '../../server/store/s3/client.js';
import { type NginxServer, startNginx } from './nginx.js';
import { freePort } from './processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type ClusterOptions = {
  nodes: number;
  databaseUrl: string;
  /** Blobs in this bucket; without it, in one data directory every node shares (X-Accel-Redirect). */
  s3?: S3Settings;
  /** More FOLIO_* settings for every node (lease, poll and sweep intervals in tests). */
  env?: Record<string, string>;
};

export type ClusterNode = {
  id: string;
  port: number;
  url: string;
  dataDir: string;
  ownerLink: string;
  lines: string[];
  proc: ChildProcess;
  /** SIGKILL: the node dies as on a power cut, mid-request. */
  kill(): Promise<void>;
  running(): boolean;
};

export type Cluster = {
  url: string;
  nodes: ClusterNode[];
  nginx: NginxServer;
  /** Starts the node again with the same id, port and data directory. */
  restart(index: number): Promise<ClusterNode>;
  close(): Promise<void>;
};

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const nginxPort = await freePort();
  const publicUrl = `http://127.0.0.1:${nginxPort}`;
  const shared = options.s3 ? undefined : await mkdtemp(join(tmpdir(), 'folio-cluster-'));
  const ports = await Promise.all(Array.from({ length: options.nodes }, freePort));
  const dataDirs = await Promise.all(
    ports.map(async () => shared ?? (await mkdtemp(join(tmpdir(), 'folio-node-')))),
  );
  const envOf = (index: number): NodeJS.ProcessEnv => ({
    ...process.env,
    FOLIO_DATABASE_URL: options.databaseUrl,
    FOLIO_NODE_ID: `node-${index + 1}`,
    FOLIO_PUBLIC_URL: publicUrl,
    FOLIO_TRUSTED_PROXIES: '127.0.0.1',
    FOLIO_FSYNC: '0',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...(options.s3 ? s3Env(options.s3) : { FOLIO_ACCEL_REDIRECT: '/_folio/data/' }),
    ...options.env,
  });
  const launch = (index: number) =>
    startNode(`node-${index + 1}`, ports[index]!, dataDirs[index]!, envOf(index));
  // All at once, as a deployment restarts: migrations and table creation take the advisory lock one at a time.
  const nodes = await Promise.all(ports.map((_, i) => launch(i)));
  const nginx = await startNginx({
    variant: options.s3 ? 's3' : 'files',
    nodes: ports,
    dataDir: shared,
    port: nginxPort,
  });
  return {
    url: publicUrl,
    nodes,
    nginx,
    async restart(index) {
      const node = await launch(index);
      nodes[index] = node;
      return node;
    },
    async close() {
      await Promise.all(nodes.map((node) => node.kill()));
      await nginx.stop();
      for (const dir of new Set(dataDirs)) await rm(dir, { recursive: true, force: true });
    },
  };
}

function s3Env(s3: S3Settings): Record<string, string> {
  return {
    FOLIO_S3_BUCKET: s3.bucket,
    FOLIO_S3_ENDPOINT: s3.endpoint ?? '',
    FOLIO_S3_REGION: s3.region,
    FOLIO_S3_ACCESS_KEY_ID: s3.accessKeyId ?? '',
    FOLIO_S3_SECRET_ACCESS_KEY: s3.secretAccessKey ?? '',
    FOLIO_S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
    FOLIO_S3_PREFIX: s3.prefix ?? '',
  };
}

function startNode(id: string, port: number, dataDir: string, env: NodeJS.ProcessEnv): Promise<ClusterNode> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', String(port), '--data-dir', dataDir],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const running = () => proc.exitCode === null && proc.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`${id} did not start within 60 s`), 60_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${why}:\n${lines.join('\n')}`));
    };
    let rest = '';
    const onData = (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
      const link = lines.find((l) => l.startsWith('Owner sign-in: '));
      if (!link || !lines.some((l) => l.startsWith('Storage: '))) return;
      clearTimeout(timer);
      resolve({
        id,
        port,
        url: `http://127.0.0.1:${port}`,
        dataDir,
        ownerLink: link.slice('Owner sign-in: '.length),
        lines,
        proc,
        running,
        async kill() {
          if (running()) proc.kill('SIGKILL');
          await exited;
        },
      });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    void exited.then(() => fail(`${id} exited before it started`));
  });
}
