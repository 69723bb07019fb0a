/**
 * `npm run dev`: the real server with Vite in middleware mode inside it, so the dashboard and the API share one
 * origin (the exact-Origin check on cookie writes and the WebSocket upgrades keep working) and edits under
 * renderer/ hot-reload. Takes the same flags as `npm run serve`; data defaults to .data/dev.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer as createVite } from 'vite';
import { createServer } from '../server/app.js';
import { configFromProcess } from '../server/config.js';
import type { DashboardSource } from '../server/surfaces/home/dashboard-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Requests Vite answers: its client, transformed modules, dependencies, the public folder. */
const VITE_PATHS = /^\/(@vite\/|@react-refresh|@fs\/|@id\/|src\/|node_modules\/|favicon\.svg)/;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const config = configFromProcess(process.argv.slice(2), {
  FOLIO_DATA_DIR: `${root}.data/dev`,
  ...process.env,
});
const vite = await createVite({
  configFile: `${root}vite.config.ts`,
  appType: 'custom',
  // Hot-reload messages on their own port: the server's upgrade handler answers only its own sockets.
  server: { middlewareMode: true, hmr: { port: await freePort() } },
});

const devDashboard: DashboardSource = {
  devServer: true,
  page: async (url) => {
    const html = await vite.transformIndexHtml(url, await readFile(`${root}renderer/index.html`, 'utf8'));
    return { type: 'text/html; charset=utf-8', identity: Buffer.from(html) };
  },
  asset: () => undefined,
};
const server = await createServer(config, console.log, { host: { dashboard: devDashboard } });

const koa = server.app.callback();
server.http.removeAllListeners('request');
server.http.on('request', (req: IncomingMessage, res: ServerResponse) => {
  if (VITE_PATHS.test(req.url ?? '')) vite.middlewares(req, res, () => void koa(req, res));
  else void koa(req, res);
});

const { url } = await server.listen();
const link = await server.deps.identity.mintSignInLink(config.ownerEmail, url, { announce: false });
console.log(`Folio listening on ${url} (dashboard from renderer/ with hot reload)`);
console.log(`Owner sign-in: ${link}`);
const stop = async () => {
  await vite.close();
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
