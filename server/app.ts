// createServer(config): builds the store and the deps once (build-deps.ts), mounts every capability's routes,
// and returns a server that is not yet listening. createDesktopServer: the same, as the desktop shell runs it.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { buildDeps, resolversOf, startDeps } from './build-deps.js';
import { allCollections } from './cli/collections.js';
import { type Config, type ConfigInput, parseConfig } from './config.js';
import type { Deps, HostHooks, Lifecycle } from './deps.js';
import { settingsFile } from './domains/settings/settings-store.js';
import type { SecretBox } from './domains/sync/desktop/key-vault.js';
import { trustProxies } from './http/client-address.js';
import { answerClientError } from './http/client-error.js';
import { drainUnreadBody } from './http/drain-request.js';
import { errorBoundary } from './http/error-boundary.js';
import { type HostPolicy, hostGuard, ownOrigins } from './http/host-guard.js';
import { mountRoutes } from './http/mount-routes.js';
import { mountSockets } from './http/mount-sockets.js';
import { notFoundFallback } from './http/not-found.js';
import { createRateLimiter, createSharedRateLimiter, type RateLimiter } from './http/rate-limit.js';
import { runSweeps, startSweeper } from './jobs/sweeper.js';
import { repairsBeforeServing, sweepsOf } from './jobs/sweeps.js';
import { createLogger, type Logger, requestLog } from './log.js';
import { openLogFile } from './log-file.js';
import type { FaultInjector } from './store/file/faults.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/types.js';
import { builtDashboard } from './surfaces/home/dashboard-files.js';
import { discoveryFor, removeDiscovery, writeDiscovery } from './surfaces/mcp/discovery.js';
import { capabilities, namedRoutes } from './surfaces/route-table.js';
import { APP_VERSION } from './version.js';

export type FolioServer = {
  app: Koa;
  http: Server;
  deps: Deps;
  config: Config;
  log: Logger;
  /** Listens; the start-up sweeps then run in the background. */
  listen(): Promise<{ port: number; url: string }>;
  /** Resolves when the sweeps that began with `listen` have run (tests and benches wait on it; nothing else must). */
  sweptAtStart(): Promise<void>;
  /** Resolves when all that `listen` began in the background has run: the indexes and the sweeps (benches). */
  settled(): Promise<void>;
  close(): Promise<void>;
};

/**
 * Hooks that only tests pass (injected storage faults, a small compaction threshold), and what the process hosting
 * the server hands it before it is built: the desktop shell's keychain box for the hosted sync keys, its settings
 * file and packaged dashboard (or Vite's, in `npm run dev`).
 */
export type ServerSeams = {
  faults?: FaultInjector;
  compactAtBytes?: number;
  compactionRetryMs?: number;
  secretBox?: SecretBox;
  host?: HostHooks;
  /** More render task modules, loaded after the product's (a test's task that crashes a render process). */
  renderModules?: string[];
  /** The desktop app's: the log also goes to a rotating file under `<data folder>/logs` (log-file.ts). */
  logFile?: boolean;
  /** The start-up sweeps wait for it after listening (a test that looks at the server before they run). */
  holdSweeps?: Promise<void>;
};

export async function createServer(
  input: ConfigInput | Config,
  write: (line: string) => void = console.log,
  seams: ServerSeams = {},
) {
  const startedAt = Date.now();
  const config = parseConfig(input as ConfigInput);
  const logFile = seams.logFile ? await openLogFile(config.dataDir) : undefined;
  const log = createLogger(config, write, logFile);
  const trustedProxy = trustProxies(config.trustedProxies);
  const { secretBox, renderModules, host, holdSweeps, logFile: _file, ...storeSeams } = seams;
  const store = await openStore({ ...config, log, ...storeSeams });
  const stops: Array<() => Promise<void> | void> = [];
  let closing = false;
  const lifecycle: Lifecycle = { onClose: (stop) => void stops.push(stop), closing: () => closing };
  const deps = buildDeps(config, store, lifecycle, log, {
    secretBox,
    renderModules,
    host: logFile ? { ...host, logFile: logFile.current } : host,
  });
  await deps.identity.bootstrapOwner();
  await runSweeps(repairsBeforeServing(deps), true, log);
  await startDeps(deps);
  let sweptAtStart: Promise<void> | undefined;
  let indexed: Promise<void> | undefined;

  let port = config.port;
  const hostPolicy: HostPolicy = {
    port: () => port,
    extraHosts: config.allowedHosts,
    publicOrigin: config.publicUrl && new URL(config.publicUrl).origin,
  };
  const resolvers = resolversOf(deps);
  const origins = () => ownOrigins(hostPolicy);
  const router = mountRoutes(
    namedRoutes().map((r) => r.route),
    {
      resolvers,
      workspaces: deps.workspaces,
      ownOrigins: origins,
      limiter: rateLimiterFor(config, store),
      jsonLimit: config.limits.jsonBytes,
      publicUrl: config.publicUrl,
      trustedProxy,
      routeDeps: deps,
    },
  );

  const app = new Koa({ proxy: false });
  app.silent = true;
  // Mounted only where it writes: every middleware is a frame on every request.
  if (config.logFormat === 'json') app.use(requestLog(log, trustedProxy));
  app.use(drainUnreadBody({ bytes: config.limits.drainBytes, ms: config.limits.drainMs }));
  app.use(errorBoundary(log));
  app.use(hostGuard(hostPolicy));
  app.use(router);
  app.use(notFoundFallback());
  // A request without Host is refused by the host guard with Folio's `{ error }` body, not by Node with an empty 400.
  const http = createHttpServer({ requireHostHeader: false }, app.callback());
  // Agents call in tight loops with pauses between; an idle connection kept for a minute spares them reconnects and
  // keeps clients (which drop a socket a second or two before the advertised timeout) clear of the close race.
  http.keepAliveTimeout = 65_000;
  http.on('clientError', answerClientError);
  const sockets = capabilities.flatMap((c) => c.sockets ?? []);
  const wss = mountSockets(http, sockets, {
    resolvers,
    workspaces: deps.workspaces,
    hostPolicy,
    ownOrigins: origins,
    routeDeps: deps,
    log,
  });

  const server: FolioServer = {
    app,
    http,
    deps,
    config,
    log,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(config.port, config.host, () => resolve());
      });
      port = (http.address() as AddressInfo).port;
      const url = `http://127.0.0.1:${port}`;
      await writeDiscovery(config.dataDir, discoveryFor(config.publicUrl ?? url, APP_VERSION));
      // After listening, in slices that yield, as each grows with the library: the unique-key indexes (a write
      // before they are ready builds its own at once), the find indexes (searches and tag filters read every row
      // until then), and the sweeps, which use the first and never remove what is served (docs/storage.md "Sweeps").
      const unique = (store.prepareIndexes?.(allCollections) ?? Promise.resolve()).catch((error) =>
        log.error('Building the unique-key indexes failed', error),
      );
      indexed ??= unique
        .then(() => store.fillFindIndexes?.(allCollections))
        .catch((error) => log.error('Building the find indexes failed', error));
      sweptAtStart ??= startSweeper({
        sweeps: sweepsOf(deps, startedAt),
        everyMs: config.sweepMs,
        log,
        lifecycle,
        after: Promise.all([unique, holdSweeps]).then(() => {}),
      });
      return { port, url };
    },
    sweptAtStart: () => sweptAtStart ?? Promise.resolve(),
    settled: async () => {
      await Promise.all([indexed, sweptAtStart]);
    },
    async close() {
      closing = true;
      await removeDiscovery(config.dataDir);
      for (const stop of stops.reverse()) await stop();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await store.close();
      await logFile?.close();
    },
  };
  return server;
}

/** What the desktop shell knows: where its settings file and built dashboard lie, and how it picks a port. */
export type DesktopServerOptions = {
  /** The instance settings (port, data folder, Whisper) the settings screen edits. */
  settingsPath: string;
  /** The data folder when the settings name none. */
  defaultDataDir: string;
  /** The dashboard built into the app. */
  dashboardDir: string;
  /** The saved port when it is free, else another. */
  choosePort: (saved: number) => Promise<number>;
  whisperWorker?: string;
  secretBox?: SecretBox;
};

/**
 * The desktop app's server, from the shell's saved settings, serving the built dashboard and letting the settings
 * screen write the shell's file; not yet listening. `savedPort` is the port the settings asked for.
 */
export async function createDesktopServer(options: DesktopServerOptions) {
  const settings = settingsFile(options.settingsPath);
  const saved = await settings.read();
  const config = parseConfig({
    dataDir: saved.dataDir ?? options.defaultDataDir,
    port: await options.choosePort(saved.port),
    whisperThreads: saved.whisperThreads,
    whisperDevice: saved.whisperDevice,
    whisperWorker: options.whisperWorker,
  });
  const server = await createServer(config, console.log, {
    secretBox: options.secretBox,
    host: { dashboard: builtDashboard(options.dashboardDir), instanceSettings: settings },
    logFile: true,
  });
  return { server, savedPort: saved.port };
}

/** Buckets in memory for one process; where the store shares them across nodes (hosted), there. */
function rateLimiterFor(config: Config, store: Store): RateLimiter {
  const limits = { perMinute: config.limits.rateLimitPerMinute, burst: config.limits.rateLimitBurst };
  return store.takeToken
    ? createSharedRateLimiter(limits, store.takeToken.bind(store))
    : createRateLimiter(limits);
}
