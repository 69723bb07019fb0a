// createServer(config): builds the store and every service once, mounts every capability's routes,
// and returns a server that is not yet listening.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { buildServices, startServices, sweepsOf } from './build-services.js';
import { capabilities, namedRoutes } from './capabilities/index.js';
import type { SecretBox } from './capabilities/sync/key-vault.js';
import { type Config, type ConfigInput, parseConfig } from './config.js';
import type { CredentialResolvers } from './http/authenticate.js';
import { answerClientError } from './http/client-error.js';
import { drainUnreadBody } from './http/drain-request.js';
import { errorBoundary } from './http/error-boundary.js';
import { HttpError } from './http/errors.js';
import { type HostPolicy, hostGuard, ownOrigins } from './http/host-guard.js';
import { mountRoutes } from './http/mount-routes.js';
import { mountSockets } from './http/mount-sockets.js';
import { notFoundFallback } from './http/not-found.js';
import { createRateLimiter } from './http/rate-limit.js';
import type { Lifecycle, Services } from './services.js';
import type { FaultInjector } from './store/file/faults.js';
import { openStore } from './store/open-store.js';
import { startSweeper } from './sweeper.js';

export type FolioServer = {
  app: Koa;
  http: Server;
  services: Services;
  config: Config;
  listen(): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
};

/**
 * Hooks that only tests pass (injected storage faults, a small compaction threshold), and the desktop shell's
 * keychain box for the hosted sync keys.
 */
export type ServerSeams = {
  faults?: FaultInjector;
  compactAtBytes?: number;
  compactionRetryMs?: number;
  secretBox?: SecretBox;
};

export async function createServer(
  input: ConfigInput | Config,
  log: (line: string) => void = console.log,
  seams: ServerSeams = {},
) {
  const config = parseConfig(input as ConfigInput);
  const { secretBox, ...storeSeams } = seams;
  const store = await openStore({ dataDir: config.dataDir, fsync: config.fsync, log, ...storeSeams });
  const stops: Array<() => Promise<void> | void> = [];
  const lifecycle: Lifecycle = { onClose: (stop) => void stops.push(stop) };
  const services = buildServices(config, store, lifecycle, log, { secretBox });
  await services.identity.bootstrapOwner();
  await startSweeper({ sweeps: sweepsOf(services), everyMs: config.sweepMs, log, lifecycle });
  await startServices(services);

  let port = config.port;
  const hostPolicy: HostPolicy = { port: () => port, extraHosts: config.allowedHosts };
  const resolvers: CredentialResolvers = {
    session: services.identity.resolveSession,
    key: services.keys.resolve,
    grants: [services.assets.grants, services.realtime.grants],
  };
  const origins = () => ownOrigins(hostPolicy);
  const router = mountRoutes(
    namedRoutes().map((r) => r.route),
    {
      resolvers,
      workspaces: services.workspaces,
      ownOrigins: origins,
      limiter: createRateLimiter({
        perMinute: config.limits.rateLimitPerMinute,
        burst: config.limits.rateLimitBurst,
      }),
      jsonLimit: config.limits.jsonBytes,
      publicUrl: config.publicUrl,
      services,
    },
  );

  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(drainUnreadBody({ bytes: config.limits.drainBytes, ms: config.limits.drainMs }));
  app.use(errorBoundary());
  app.use(hostGuard(hostPolicy));
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new HttpError(405, 'Method not allowed on this path'),
      notImplemented: () => new HttpError(501, 'Method not implemented'),
    }),
  );
  app.use(notFoundFallback());
  const http = createHttpServer(app.callback());
  http.on('clientError', answerClientError);
  const sockets = capabilities.flatMap((c) => c.sockets ?? []);
  const wss = mountSockets(http, sockets, {
    resolvers,
    workspaces: services.workspaces,
    hostPolicy,
    ownOrigins: origins,
    services,
  });

  const server: FolioServer = {
    app,
    http,
    services,
    config,
    listen: () =>
      new Promise((resolve, reject) => {
        http.once('error', reject);
        http.listen(config.port, config.host, () => {
          port = (http.address() as AddressInfo).port;
          resolve({ port, url: `http://127.0.0.1:${port}` });
        });
      }),
    async close() {
      for (const stop of stops.reverse()) await stop();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await store.close();
    },
  };
  return server;
}
