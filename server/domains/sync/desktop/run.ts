// One sync run of one workspace: ask the hosted side who we are there and what the key may sync, finish packs an
// earlier run left, push, then pull. The summary says what happened, what failed item by item, and what was
// skipped and why; `lastSuccessAt` moves only when nothing failed.
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { RunSummary } from '../collections.js';
import type { Kinds } from '../kinds/index.js';
import type { SyncInfo, SyncKind } from '../protocol/schema.js';
import { OfflineError, type Remote } from './hosted-client.js';
import type { Progress } from './progress.js';
import { pullPhase } from './pull-changes.js';
import { createRunContext } from './run-context.js';
import { pushPhase } from './send-push.js';
import type { SyncBook } from './state.js';

export type RunDeps = {
  store: Store;
  assets: AssetService;
  kinds: Kinds;
  workspaceId: string;
  remote: Remote;
  book: SyncBook;
  progress: Progress;
  downloadsRoot: string;
  full?: boolean;
};

export async function runSync(deps: RunDeps): Promise<RunSummary> {
  const { book, progress, remote } = deps;
  const startedAt = new Date().toISOString();
  let skipped: RunSummary['skipped'] = [];
  let failure: string | undefined;
  let offline = false;
  try {
    const info = await remote.info();
    const allowed = new Set(info.kinds.filter((k) => k.allowed).map((k) => k.kind));
    skipped = await countSkipped(deps, info);
    await adoptRemote(book, info, allowed);
    const ctx = createRunContext({ ...deps, allowed, full: deps.full ?? false });
    await ctx.uploader.resume();
    await pushPhase(ctx);
    await pullPhase(ctx);
  } catch (error) {
    // stopped (the owner's "Stop syncing", the app closing): the next run starts where this one was
    failure =
      (error as Error).name === 'AbortError' ? 'Stopped before it finished' : (error as Error).message;
    offline = error instanceof OfflineError;
  }
  const summary: RunSummary = {
    startedAt,
    finishedAt: new Date().toISOString(),
    ok: !failure && progress.errors.length === 0,
    ...(failure && { error: failure, offline }),
    counts: progress.counts,
    errors: progress.errors.slice(0, 200),
    skipped,
  };
  await book.saveSettings({ lastRun: summary, ...(summary.ok && { lastSuccessAt: summary.finishedAt }) });
  return summary;
}

/**
 * Another remote workspace, or a key that may now sync other kinds, than last time: forget what was agreed and plan
 * everything again (hashes decide, so nothing is sent twice and nothing is lost).
 */
async function adoptRemote(book: SyncBook, info: SyncInfo, allowed: Set<SyncKind>): Promise<void> {
  const settings = await book.settings();
  const kinds = [...allowed].sort().join(',');
  const sameWorkspace = !settings.remoteWorkspaceId || settings.remoteWorkspaceId === info.workspace.id;
  const sameKinds = settings.syncedKinds === undefined || settings.syncedKinds === kinds;
  if (!sameWorkspace) await book.forgetAll();
  await book.saveSettings({
    remoteWorkspaceId: info.workspace.id,
    remoteWorkspaceName: info.workspace.name,
    syncedKinds: kinds,
    ...(!sameWorkspace || !sameKinds ? { localSince: 0, remoteSince: 0 } : {}),
  });
}

/** What the key cannot sync, with the number of local records of each such kind. */
async function countSkipped(deps: RunDeps, info: SyncInfo): Promise<RunSummary['skipped']> {
  return Promise.all(
    info.skipped.map(async (s) => {
      const adapter = deps.kinds.of(s.kind);
      const count = await deps.store.collection(adapter.collection, deps.workspaceId).count();
      deps.progress.count('skipped', count);
      return { ...s, count };
    }),
  );
}
