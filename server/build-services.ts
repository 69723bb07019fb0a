// Builds every service once, each with what it needs, in dependency order: the store, accounts, assets, the
// Whisper engine of the instance, then what runs on it. Capabilities register their usage and clean-up with
// workspaces here, and the sweeper's jobs come from here too.
import { join } from 'node:path';
import { createAssetService } from './capabilities/assets/service.js';
import { createChunkedUploads } from './capabilities/chunked-uploads/service.js';
import { createIdentityService } from './capabilities/identity/service.js';
import { capabilities, namedRoutes } from './capabilities/index.js';
import { createKeyService } from './capabilities/keys/service.js';
import { createModelStore } from './capabilities/models/model-store.js';
import { createModelManager } from './capabilities/models/service.js';
import { createRealtimeService } from './capabilities/realtime/service.js';
import { createReferenceService } from './capabilities/reference/service.js';
import type { SecretBox } from './capabilities/sync/key-vault.js';
import { createSyncService } from './capabilities/sync/service.js';
import { createTranscriptService } from './capabilities/transcripts/service.js';
import { createActiveEngine } from './capabilities/whisper/active-engine.js';
import { createWorkspaceService } from './capabilities/workspaces/service.js';
import type { Config } from './config.js';
import type { Lifecycle, Services } from './services.js';
import type { Store } from './store/types.js';
import type { Sweep } from './sweeper.js';
import { APP_VERSION } from './version.js';

export function buildServices(
  config: Config,
  store: Store,
  lifecycle: Lifecycle,
  log: (line: string) => void,
  extras: { secretBox?: SecretBox } = {},
): Services {
  const workspaces = createWorkspaceService({ store });
  const keys = createKeyService({ store });
  const identity = createIdentityService({ store, config, workspaces, log });
  const assets = createAssetService({ store, config });

  const modelStore = createModelStore({ dataDir: config.dataDir });
  const engine = createActiveEngine({
    modelStore,
    dataDir: config.dataDir,
    overridePath: config.whisperModel,
    threads: config.whisperThreads,
    tmpDir: store.tmpDir,
    log,
  });
  const models = createModelManager({ dataDir: config.dataDir, modelStore, active: engine });
  const transcripts = createTranscriptService({ store, assets, active: engine, log });
  const chunkedUploads = createChunkedUploads({
    store,
    assets,
    transcripts,
    maxBytes: config.limits.uploadBytes,
    partsRoot: join(config.dataDir, 'chunked'),
  });
  const realtime = createRealtimeService({ active: engine, transcripts, assets, tmpDir: store.tmpDir });
  const sync = createSyncService({
    store,
    config,
    assets,
    transcripts,
    chunkedUploads,
    secretBox: extras.secretBox,
    log,
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

  lifecycle.onClose(async () => {
    sync.desktop.scheduler.stop();
    realtime.close();
    models.close();
    await transcripts.close();
    await engine.close();
  });
  const reference = createReferenceService({ capabilities, routes: namedRoutes(), version: APP_VERSION });
  return {
    lifecycle,
    config,
    store,
    identity,
    workspaces,
    keys,
    reference,
    assets,
    engine,
    models,
    transcripts,
    chunkedUploads,
    realtime,
    sync,
  };
}

/**
 * Start-up work after the services exist: report an unusable --whisper-model, resume the transcription queue, run
 * the background sync of opted-in workspaces.
 */
export async function startServices({ engine, transcripts, sync }: Services): Promise<void> {
  await engine.checkAtStart();
  await transcripts.start();
  sync.desktop.scheduler.start();
}

/** What the sweeper runs: expired credentials, abandoned uploads, and bytes no record owns (after a crash). */
export function sweepsOf({ identity, assets, chunkedUploads, sync }: Services): Sweep[] {
  const ORPHAN_GRACE_MS = 3600_000; // an upload under way may own bytes that have no record yet
  return [
    () => identity.sweep(),
    async () => ({ 'expired upload grants': await assets.grants.sweep() }),
    async (startup) => {
      const { expired, orphans } = await chunkedUploads.sweep({ startup });
      return { 'expired chunked uploads': expired, 'orphaned chunked upload directories': orphans };
    },
    async (startup) => ({
      'asset files without a record': await assets.sweepOrphans(startup ? 0 : ORPHAN_GRACE_MS),
    }),
    () => sync.hosted.sweep(),
  ];
}
