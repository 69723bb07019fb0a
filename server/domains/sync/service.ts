/**
 * Sync: the receiving side (hosted/, what any Folio serves) and the syncing side (desktop/, what a desktop runs) of
 * the same domain, over one set of kinds (kinds/) and one protocol (protocol/). The wiring names what each side
 * needs beyond the records that travel: the receiving side takes packs in as chunked uploads; the syncing side keeps
 * its hosted keys in a vault and logs its background runs.
 */
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { Store } from '../../store/types.js';
import type { ChunkedUploads } from '../uploads/chunked/service.js';
import { createKeyVault, type SecretBox } from './desktop/key-vault.js';
import { createDesktopSync } from './desktop/service.js';
import { createHostedSync } from './hosted/service.js';
import { createKinds, type KindDeps } from './kinds/index.js';

export type SyncServiceDeps = {
  store: Store;
  config: Pick<Config, 'dataDir' | 'limits'>;
  /** The services whose records travel, which both sides read and write. */
  records: KindDeps;
  /** The receiving side's own: packs of blobs arrive as chunked uploads. */
  hosted: { chunkedUploads: ChunkedUploads };
  /** The syncing side's own: the shell's keychain-backed box for the hosted keys (headless, a 0600 file), a log. */
  desktop: { secretBox?: SecretBox; log: Logger };
};

export function createSyncService({ store, config, records, hosted, desktop }: SyncServiceDeps) {
  const kinds = createKinds(records);
  const { assets } = records;
  return {
    kinds,
    hosted: createHostedSync({
      store,
      assets,
      kinds,
      chunkedUploads: hosted.chunkedUploads,
      limits: config.limits,
    }),
    desktop: createDesktopSync({
      store,
      assets,
      kinds,
      vault: createKeyVault({ dataDir: config.dataDir, box: desktop.secretBox }),
      dataDir: config.dataDir,
      log: desktop.log,
    }),
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
