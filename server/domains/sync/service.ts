/** Sync: the receiving side (hosted/) and the syncing side (desktop/) of the same domain, over one set of kinds (kinds/) and one protocol (protocol/). */
import type { Config } from '../../config.js';
import type { Store } from '../../store/types.js';
import type { AssetService } from '../assets/service.js';
import type { ArtifactService } from '../publishing/artifacts/service.js';
import type { ChartService } from '../publishing/charts/service.js';
import type { DiagramService } from '../publishing/diagrams/service.js';
import type { PublishingService } from '../publishing/service.js';
import type { TranscriptService } from '../transcripts/service.js';
import type { ChunkedUploads } from '../uploads/chunked/service.js';
import type { UploadService } from '../uploads/service.js';
import { createKeyVault, type SecretBox } from './desktop/key-vault.js';
import { createDesktopSync } from './desktop/service.js';
import { createHostedSync } from './hosted/service.js';
import { createKinds } from './kinds/index.js';

export type SyncServiceDeps = {
  store: Store;
  config: Pick<Config, 'dataDir' | 'limits'>;
  assets: AssetService;
  uploads: Pick<UploadService, 'createFromFile'>;
  transcripts: TranscriptService;
  publishing: PublishingService;
  diagrams: DiagramService;
  charts: ChartService;
  artifacts: ArtifactService;
  chunkedUploads: ChunkedUploads;
  /** The desktop shell's keychain-backed box for the hosted keys; headless, a 0600 file holds them. */
  secretBox?: SecretBox;
  log: (line: string) => void;
};

export function createSyncService(deps: SyncServiceDeps) {
  const { store, config, assets } = deps;
  const kinds = createKinds(deps);
  return {
    kinds,
    hosted: createHostedSync({
      store,
      assets,
      kinds,
      chunkedUploads: deps.chunkedUploads,
      limits: config.limits,
    }),
    desktop: createDesktopSync({
      store,
      assets,
      kinds,
      vault: createKeyVault({ dataDir: config.dataDir, box: deps.secretBox }),
      dataDir: config.dataDir,
      log: deps.log,
    }),
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
