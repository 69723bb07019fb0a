// createServer(config): builds the store and every service once, mounts every capability's routes,
// and returns a server that is not yet listening.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createAssetService } from './capabilities/assets/service.js';
import { createIdentityService } from './capabilities/identity/service.js';
import { capabilities, namedRoutes } from './capabilities/index.js';
import { createKeyService } from './capabilities/keys/service.js';
import { createReferenceService } from './capabilities/reference/service.js';
import { createTranscriptionService } from './capabilities/transcription/service.js';
import { createWorkspaceService } from './capabilities/workspaces/service.js';
import { type Config, type ConfigInput, parseConfig } from './config.js';
import type { CredentialResolvers } from './http/authenticate.js';
import { trustProxies } from './http/client-address.js';
import { errorBoundary } from './http/error-boundary.js';
import { HttpError } from './http/errors.js';
import { type HostPolicy, hostGuard, ownOrigins } from './http/host-guard.js';
import { mountRoutes } from './http/mount-routes.js';
import { mountSockets } from './http/mount-sockets.js';
import { notFoundFallback } from './http/not-found.js';
import { createRateLimiter, createSharedRateLimiter, type RateLimiter } from './http/rate-limit.js';
import { requestLog, structuredLog } from './log.js';
import type { Lifecycle, Services } from './services.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/types.js';
import { type Sweep, startSweeper } from './sweeper.js';
import { APP_VERSION } from './version.js';

export type FolioServer = {
  app: Koa;
  http: Server;
  services: Services;
  config: Config;
  listen(): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
};

export async function createServer(input: ConfigInput | Config, write: (line: string) => void = console.log) {
  const config = parseConfig(input as ConfigInput);
  const log = structuredLog(config, write);
  const trustedProxy = trustProxies(config.trustedProxies);
  const store = await openStore({ ...config, log });
  const stops: Array<() => Promise<void> | void> = [];
  let closing = false;
  const lifecycle: Lifecycle = { onClose: (stop) => void stops.push(stop), closing: () => closing };
  const services = buildServices(config, store, lifecycle, log);
  await services.identity.bootstrapOwner();
  await startSweeper({ sweeps: sweepsOf(services), everyMs: config.sweepMs, log, lifecycle });
  await services.transcription.start();

  let port = config.port;
  const hostPolicy: HostPolicy = {
    port: () => port,
    extraHosts: config.allowedHosts,
    publicOrigin: config.publicUrl && new URL(config.publicUrl).origin,
  };
  const resolvers: CredentialResolvers = {
    session: services.identity.resolveSession,
    key: services.keys.resolve,
    grants: [services.assets.grants, services.transcription.realtime.grants],
  };
  const origins = () => ownOrigins(hostPolicy);
  const router = mountRoutes(
    namedRoutes().map((r) => r.route),
    {
      resolvers,
      workspaces: services.workspaces,
      ownOrigins: origins,
      limiter: rateLimiterFor(config, store),
      jsonLimit: config.limits.jsonBytes,
      publicUrl: config.publicUrl,
      trustedProxy,
      services,
    },
  );

  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(requestLog(config, write, trustedProxy));
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
      closing = true;
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

function buildServices(
  config: Config,
  store: Store,
  lifecycle: Lifecycle,
  log: (line: string) => void,
): Services {
  const workspaces = createWorkspaceService({ store });
  const keys = createKeyService({ store });
  const identity = createIdentityService({ store, config, workspaces, log });
  const assets = createAssetService({ store, config });
  workspaces.register({ name: 'keys', drop: keys.dropWorkspace });
  workspaces.register({
    name: 'assets',
    usage: async (id) => {
      const { assets: count, bytes } = await assets.usage(id);
      return { count, bytes };
    },
    drop: assets.forgetWorkspace,
  });
  const transcription = createTranscriptionService({ store, assets, config, lifecycle, log });
  // Registered after assets: a workspace's running transcriptions stop before anything else of it goes.
  workspaces.register({ name: 'transcripts', usage: transcription.usage, drop: transcription.dropWorkspace });
  const reference = createReferenceService({ capabilities, routes: namedRoutes(), version: APP_VERSION });
  return { lifecycle, config, store, identity, workspaces, keys, reference, assets, transcription };
}

/** What the sweeper runs: expired credentials, abandoned uploads, and bytes no record owns (after a crash). */
function sweepsOf({ identity, assets, transcription, config }: Services): Sweep[] {
  // An upload under way may own bytes that have no record yet. At start-up none is, unless other nodes share
  // the store: there every sweep keeps the grace.
  const idleAtStart = (startup: boolean) => startup && !config.database;
  const graceMs = (startup: boolean) => (idleAtStart(startup) ? 0 : config.orphanGraceMs);
  return [
    () => identity.sweep(),
    async () => ({ 'expired upload grants': await assets.grants.sweep() }),
    async () => ({ 'expired realtime secrets': await transcription.realtime.grants.sweep() }),
    async (startup) => {
      const { expired, orphans } = await transcription.chunked.sweep({
        startup: idleAtStart(startup),
        graceMs: graceMs(startup),
      });
      return { 'expired chunked uploads': expired, 'orphaned chunked upload directories': orphans };
    },
    async (startup) => ({ 'asset files without a record': await assets.sweepOrphans(graceMs(startup)) }),
  ];
}

/** Buckets in memory for one process; where the store shares them across nodes (hosted), there. */
function rateLimiterFor(config: Config, store: Store): RateLimiter {
  const limits = { perMinute: config.limits.rateLimitPerMinute, burst: config.limits.rateLimitBurst };
  return store.takeToken
    ? createSharedRateLimiter(limits, store.takeToken.bind(store))
    : createRateLimiter(limits);
}
