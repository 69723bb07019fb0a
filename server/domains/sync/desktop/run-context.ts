// Everything one sync run of one workspace works with, built once per run (run.ts).
import { join } from 'node:path';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { Kinds } from '../kinds/index.js';
import type { SyncKind } from '../protocol/schema.js';
import { type Applier, createApplier } from './apply.js';
import { type Conflicts, createConflicts } from './conflicts.js';
import { createDownloader } from './fetch-blobs.js';
import type { Remote } from './hosted-client.js';
import type { Progress } from './progress.js';
import { createUploader } from './send-packs.js';
import type { SyncBook } from './state.js';

export type RunContext = {
  store: Store;
  workspaceId: string;
  kinds: Kinds;
  remote: Remote;
  book: SyncBook;
  progress: Progress;
  /** The kinds the remote key may sync. */
  allowed: Set<SyncKind>;
  /** Plan every record again, not only what changed since the last run. */
  full: boolean;
  uploader: ReturnType<typeof createUploader>;
  downloader: ReturnType<typeof createDownloader>;
  applier: Applier;
  conflicts: Conflicts;
};

export function createRunContext(deps: {
  store: Store;
  assets: AssetService;
  workspaceId: string;
  kinds: Kinds;
  remote: Remote;
  book: SyncBook;
  progress: Progress;
  allowed: Set<SyncKind>;
  full: boolean;
  downloadsRoot: string;
}): RunContext {
  const { store, workspaceId, kinds, remote, progress, book } = deps;
  const downloader = createDownloader({
    store,
    assets: deps.assets,
    workspaceId,
    remote,
    progress,
    dir: join(deps.downloadsRoot, workspaceId),
  });
  const applier = createApplier({ store, workspaceId, kinds, book, blobs: downloader.source });
  return {
    ...deps,
    uploader: createUploader({ store, workspaceId, kinds, remote, progress }),
    downloader,
    applier,
    conflicts: createConflicts({ store, workspaceId, kinds }),
  };
}
