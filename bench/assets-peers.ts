/** Peers and tools for the assets benches: nginx (sendfile, 1 worker), a bare node:http file server, wrk. */
import { execFile, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface WrkResult {
  reqPerSec: number;
  mbPerSec: number;
}

/** `wrk -c4 -t2 -d5s` (the peers' own settings), optionally with extra headers such as Range. */
export async function wrk(
  url: string,
  headers: Record<string, string> = {},
  seconds = 5,
): Promise<WrkResult> {
  const args = [
    '-c4',
    '-t2',
    `-d${seconds}s`,
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ];
  const { stdout } = await run('wrk', args, { maxBuffer: 1 << 20 });
  const reqPerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const transfer = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(stdout);
  const unit: Record<string, number> = { B: 1e-6, KB: 1024 / 1e6, MB: 1048576 / 1e6, GB: 1073741824 / 1e6 };
  const mbPerSec = transfer ? Number(transfer[1]) * (unit[transfer[2]] ?? 0) : 0;
  if (/Non-2xx/.test(stdout)) throw new Error(`wrk saw errors for ${url}:\n${stdout}`);
  return { reqPerSec, mbPerSec };
}

/** nginx serving `root` on 127.0.0.1 with sendfile on and one worker. */
export async function startNginx(
  root: string,
  workDir: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  await mkdir(workDir, { recursive: true });
  await chmod(root, 0o755); // nginx workers drop to an unprivileged user; mkdtemp dirs are 0700
  const port = 20000 + Math.floor(Math.random() * 20000);
  const conf = join(workDir, 'nginx.conf');
  await writeFile(
    conf,
    `daemon off; worker_processes 1; pid ${workDir}/nginx.pid; error_log ${workDir}/error.log;
events { worker_connections 256; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path ${workDir}/body; proxy_temp_path ${workDir}/proxy; fastcgi_temp_path ${workDir}/fcgi;
  uwsgi_temp_path ${workDir}/uwsgi; scgi_temp_path ${workDir}/scgi;
  types { application/octet-stream bin; audio/mpeg mp3; }
  server { listen 127.0.0.1:${port}; root ${root}; } }`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', workDir], { stdio: 'ignore' });
  await waitForPort(`http://127.0.0.1:${port}/`);
  const exited = new Promise((r) => child.once('exit', r));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** node:http + fs.createReadStream, the "bare node" peer. */
export async function startBareNode(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const stream = createReadStream(join(root, (req.url ?? '/').slice(1)));
    stream.on('error', () => res.writeHead(404).end());
    stream.once('open', () => res.writeHead(200, { 'Content-Type': 'application/octet-stream' }));
    stream.pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function waitForPort(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens at ${url}`);
}
