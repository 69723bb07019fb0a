// Builds the app's deps (deps.ts) once: every service, each with what it needs, in dependency order: the store,
// accounts, assets, the Whisper engine of the instance, then what runs on it. Domains register their usage and
// clean-up with workspaces here; the sweeper's list is jobs/sweeps.ts.
import { join } from 'node:path';
import type { Config } from './config.js';
import type { Deps, HostHooks, Lifecycle } from './deps.js';
import { createAssetService } from './domains/assets/service.js';
import { createIdentityService } from './domains/identity/service.js';
import { createKeyService } from './domains/keys/service.js';
import { createModelStore } from './domains/models/model-store.js';
import { createModelManager } from './domains/models/service.js';
import { createArtifactService } from './domains/publishing/artifacts/service.js';
import { createChartService } from './domains/publishing/charts/service.js';
import { createDiagramService } from './domains/publishing/diagrams/service.js';
import { createPublishingService } from './domains/publishing/service.js';
import { createRealtimeService } from './domains/realtime/service.js';
import type { SecretBox } from './domains/sync/desktop/key-vault.js';
import { createSyncService } from './domains/sync/service.js';
import { storedOptions } from './domains/transcripts/options.js';
import { createTranscriptService } from './domains/transcripts/service.js';
import { createChunkedUploads } from './domains/uploads/chunked/service.js';
import { createUploadService } from './domains/uploads/service.js';
import { createWatchedFolderService } from './domains/watched-folders/service.js';
import { createWorkspaceService } from './domains/workspaces/service.js';
import { createRenderCache } from './engines/render/render-cache.js';
import { createRenderPool } from './engines/render/render-pool.js';
import { createActiveEngine } from './engines/whisper/active-engine.js';
import { ffmpegChooser } from './engines/whisper/ffmpeg-binary.js';
import type { CredentialResolvers } from './http/authenticate.js';
import type { Logger } from './log.js';
import type { Store } from './store/types.js';
import { createMcpService } from './surfaces/mcp/service.js';
import { createNodeStatus } from './surfaces/reference/node-status.js';
import { createReferenceService } from './surfaces/reference/service.js';
import { capabilities, namedRoutes, renderTaskModules } from './surfaces/route-table.js';
import { APP_VERSION } from './version.js';

export function buildDeps(
  config: Config,
  store: Store,
  lifecycle: Lifecycle,
  log: Logger,
  extras: { secretBox?: SecretBox; renderModules?: string[]; host?: HostHooks } = {},
): Deps {
  const host: HostHooks = extras.host ?? {}; // the desktop shell may hand its settings store over later
  const workspaces = createWorkspaceService({ store });
  const keys = createKeyService({ store });
  const identity = createIdentityService({ store, config, workspaces, log });
  const assets = createAssetService({ store, config });
  const uploads = createUploadService({ store, assets, maxBytes: config.limits.uploadBytes });

  const modelStore = createModelStore({ dataDir: config.dataDir });
  const engine = createActiveEngine({
    modelStore,
    dataDir: config.dataDir,
    overridePath: config.whisperModel,
    threads: config.whisperThreads,
    device: config.whisperDevice,
    workerPath: config.whisperWorker,
    tmpDir: store.tmpDir,
    stallMs: config.jobStallMs,
    decoder: {
      ffmpeg: ffmpegChooser(config.ffmpeg),
      maxSeconds: config.limits.audioSeconds,
      maxMemoryMb: config.limits.decodeMemoryMb,
    },
    log,
  });
  const models = createModelManager({ dataDir: config.dataDir, modelStore, active: engine });
  const transcripts = createTranscriptService({
    store,
    assets,
    assetFromFile: uploads.createFromFile,
    active: engine,
    log,
    // Only a hosted instance has other nodes whose work and results must be looked for.
    queue: {
      node: config.nodeId,
      leaseMs: config.jobLeaseMs,
      pollMs: config.database ? config.queuePollMs : undefined,
      onlyWhenReady: Boolean(config.database),
      unclaimedMs: config.jobUnclaimedMs,
    },
    savedOptions: async () => {
      const saved = (await host.instanceSettings?.read())?.transcription;
      return saved && storedOptions(saved);
    },
    uploads: {
      tmpDir: store.tmpDir,
      maxBytes: config.limits.uploadBytes,
      transcribeMaxBytes: config.limits.transcribeBytes,
    },
  });
  const chunkedUploads = createChunkedUploads({
    store,
    assets,
    assetFromFile: uploads.createFromFile,
    transcripts,
    maxBytes: config.limits.uploadBytes,
    partsRoot: join(config.dataDir, 'chunked'),
  });
  const realtime = createRealtimeService({
    store,
    active: engine,
    transcripts,
    uploads,
    tmpDir: store.tmpDir,
  });

  workspaces.register({ name: 'keys', drop: keys.dropWorkspace });
  workspaces.register({
    name: 'assets',
    usage: async (id) => {
      const { assets: count, bytes } = await assets.usage(id);
      return { count, bytes };
    },
    drop: assets.forgetWorkspace,
  });
  workspaces.register({ name: 'transcripts', usage: transcripts.usage, drop: transcripts.dropWorkspace });
  workspaces.register({ name: 'chunked uploads', drop: chunkedUploads.dropWorkspace });
  const watchedFolders = createWatchedFolderService({
    store,
    config,
    transcripts,
    workspaces,
    identity,
    settings: () => host.instanceSettings,
    log,
  });
  workspaces.register({ name: 'watched folders', drop: watchedFolders.dropWorkspace });

  lifecycle.onClose(async () => {
    realtime.close();
    models.close();
    await watchedFolders.close();
    await transcripts.close();
    await engine.close();
  });
  // Publishing: layout, charts, rasterizing and pages render in child processes; outputs cached per version.
  const renderPool = createRenderPool({
    modules: [...renderTaskModules, ...(extras.renderModules ?? [])],
    threads: config.render.threads,
    taskTimeoutMs: config.render.taskTimeoutMs,
    maxHeapMb: config.render.maxHeapMb,
    log,
  });
  // Not warmed at start: a render process holds ~100 MB, which a desktop that never publishes should not pay. The
  // first render starts it; it stops again after a minute idle.
  lifecycle.onClose(() => renderPool.close());
  const cache = createRenderCache({ maxBytes: config.render.cacheBytes });
  const published = { store, pool: renderPool, cache, workspaces };
  const diagrams = createDiagramService(published);
  const charts = createChartService({ ...published, assets });
  const artifacts = createArtifactService({ ...published, assets, transcripts, charts, diagrams });
  const publishing = createPublishingService({
    store,
    publications: {
      diagrams: diagrams.publications,
      charts: charts.publications,
      artifacts: artifacts.publications,
    },
  });
  const sync = createSyncService({
    store,
    config,
    records: { assets, uploads, transcripts, publishing, diagrams, charts, artifacts },
    hosted: { chunkedUploads },
    desktop: { secretBox: extras.secretBox, log },
  });
  lifecycle.onClose(() => sync.desktop.close());

  const reference = createReferenceService({ capabilities, routes: namedRoutes(), version: APP_VERSION });
  const deps: Deps = {
    lifecycle,
    host,
    config,
    store,
    identity,
    workspaces,
    keys,
    reference,
    node: createNodeStatus({ store, node: config.nodeId, closing: lifecycle.closing }),
    assets,
    uploads,
    engine,
    models,
    transcripts,
    chunkedUploads,
    watchedFolders,
    realtime,
    sync,
    renderPool,
    publishing,
    diagrams,
    charts,
    artifacts,
    mcp: createMcpService({
      routes: namedRoutes(),
      capabilities,
      version: APP_VERSION,
      lifecycle,
      invoke: () => ({ resolvers: resolversOf(deps), workspaces, routeDeps: deps }),
      log,
    }),
  };
  return deps;
}

/** How each credential on a request is recognised: the session cookie, an API key, the grants. */
export function resolversOf(deps: Deps): CredentialResolvers {
  return {
    session: deps.identity.resolveSession,
    key: deps.keys.resolve,
    grants: [deps.uploads.grants, deps.realtime.grants],
  };
}

/**
 * Start-up work once the deps are built: report an unusable --whisper-model, resume the transcription queue, watch
 * the watched folders (importing what arrived while stopped), run the background sync of opted-in workspaces.
 */
export async function startDeps({ engine, transcripts, watchedFolders, sync }: Deps): Promise<void> {
  await engine.checkAtStart();
  await transcripts.start();
  await watchedFolders.start();
  sync.desktop.scheduler.start();
}
