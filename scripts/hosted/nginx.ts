// Debian's nginx in front of Folio nodes, for tests and benches: the documented configuration under deploy/nginx/
// rendered with this run's ports and directories, inside a minimal nginx.conf that keeps every file in a temp
// directory. Workers run as root only when we are root (the nodes' data directories are ours, mode 0700).
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, isRoot, stopPid, waitForExit, waitForPort } from './processes.js';

const DEPLOY = fileURLToPath(new URL('../../deploy/nginx/', import.meta.url));

export type NginxOptions = {
  /** Which documented configuration: blobs as files (X-Accel-Redirect) or in a bucket (proxy cache). */
  variant: 'files' | 's3';
  nodes: number[];
  /** The nodes' data directory (files variant). */
  dataDir?: string;
  port?: number;
  workers?: number;
};

export type NginxServer = { url: string; port: number; dir: string; pid: number; stop(): Promise<void> };

/** Fills deploy/nginx's ${...} values, as envsubst would. */
export function renderTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{(FOLIO_[A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export async function startNginx(options: NginxOptions): Promise<NginxServer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-nginx-'));
  const port = options.port ?? (await freePort());
  await mkdir(join(dir, 'cache'));
  const values = {
    FOLIO_UPSTREAM_SERVERS: options.nodes
      .map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`)
      .join('\n    '),
    FOLIO_LISTEN: `127.0.0.1:${port}`,
    FOLIO_SERVER_NAME: '127.0.0.1',
    FOLIO_DATA_DIR: options.dataDir ?? join(dir, 'no-data'),
    FOLIO_CACHE_DIR: join(dir, 'cache'),
    FOLIO_CACHE_MAX_SIZE: '1g',
    FOLIO_NGINX_DIR: dir,
  };
  for (const file of ['folio-proxy.conf', `folio-${options.variant}.conf`])
    await writeFile(join(dir, file), renderTemplate(await readFile(join(DEPLOY, file), 'utf8'), values));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (t) => `${t}_temp_path ${join(dir, t)};`,
  );
  await writeFile(
    join(dir, 'nginx.conf'),
    `${isRoot() ? 'user root;\n' : ''}worker_processes ${options.workers ?? 2};
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  ${temp.join('\n  ')}
  include ${join(dir, `folio-${options.variant}.conf`)};
}
`,
  );
  const log = openSync(join(dir, 'nginx.out'), 'a');
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  const pid = child.pid!;
  try {
    await waitForPort(port, 10_000, 'nginx');
  } catch (error) {
    stopPid(pid, 'SIGKILL');
    const errors = await readFile(join(dir, 'nginx.out'), 'utf8').catch(() => '');
    throw new Error(`${(error as Error).message}\n${errors}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    pid,
    async stop() {
      stopPid(pid, 'SIGTERM'); // fast shutdown: the master stops its workers, then exits
      await waitForExit(pid, 5_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
