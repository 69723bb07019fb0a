// The syncing side of one desktop: per-workspace settings (remote URL, key in the vault, opt-in), runs (one at a
// time per workspace, with live progress), the conflicts list, and the background schedule.
import { join } from 'node:path';
import { badRequest, HttpError, serviceUnavailable } from '../../../http/errors.js';
import type { Logger } from '../../../log.js';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { ConflictRecord, RunSummary } from '../collections.js';
import type { Kinds } from '../kinds/index.js';
import { createConflicts } from './conflicts.js';
import { createRemote, OfflineError, ProtocolError, RemoteError } from './hosted-client.js';
import type { KeyVault } from './key-vault.js';
import { createProgress, type Progress } from './progress.js';
import { runSync } from './run.js';
import { createScheduler } from './scheduler.js';
import type { Conflict, SyncSettings, SyncSettingsBody, SyncStatus } from './screen-schema.js';
import { createSyncBook } from './state.js';

export type DesktopDeps = {
  store: Store;
  assets: AssetService;
  kinds: Kinds;
  vault: KeyVault;
  dataDir: string;
  log: Logger;
};

/** `stop` aborts the run: its request under way, or its wait before a retry, ends at once. */
type Running = { startedAt: string; progress: Progress; done: Promise<RunSummary>; stop: AbortController };

export function createDesktopSync(deps: DesktopDeps) {
  const { store, vault, kinds } = deps;
  const running = new Map<string, Running>();
  const book = (workspaceId: string) => createSyncBook(store, workspaceId);
  const scheduler = createScheduler({ store, run: (ws) => run(ws), log: deps.log });
  let closed = false;

  async function settings(workspaceId: string): Promise<SyncSettings> {
    const s = await book(workspaceId).settings();
    return {
      enabled: s.enabled,
      remoteUrl: s.remoteUrl,
      keyPrefix: s.keyPrefix,
      keyStorage: vault.storage,
      intervalMinutes: s.intervalMinutes,
      remoteWorkspace: s.remoteWorkspaceId
        ? { id: s.remoteWorkspaceId, name: s.remoteWorkspaceName ?? '' }
        : null,
    };
  }

  /** Saves settings; a new URL or key is tried against the hosted Folio first, so a typo is caught here. */
  async function saveSettings(workspaceId: string, body: SyncSettingsBody): Promise<SyncSettings> {
    const current = await book(workspaceId).settings();
    const remoteUrl = body.remoteUrl?.replace(/\/+$/, '') ?? current.remoteUrl;
    const key = body.key ?? (await vault.get(workspaceId));
    if (body.remoteUrl !== undefined || body.key !== undefined) {
      if (!remoteUrl || !key) throw badRequest('Give the hosted Folio’s remoteUrl and a key from it');
      const info = await createRemote({ baseUrl: remoteUrl, key, maxWaitMs: 5000 })
        .info()
        .catch(explainRemote);
      if (body.key)
        await vault.set(workspaceId, body.key).catch((e) => Promise.reject(badRequest(e.message)));
      await book(workspaceId).saveSettings({
        remoteUrl,
        keyPrefix: key.slice(0, 11),
        enabled: body.enabled ?? true,
        remoteWorkspaceName: info.workspace.name,
        ...(current.remoteWorkspaceId ? {} : { remoteWorkspaceId: info.workspace.id }),
      });
    }
    if (body.enabled !== undefined || body.intervalMinutes !== undefined) {
      if (body.enabled && !(remoteUrl && key)) throw badRequest('Set remoteUrl and key before enabling sync');
      await book(workspaceId).saveSettings({
        ...(body.enabled !== undefined && { enabled: body.enabled }),
        ...(body.intervalMinutes !== undefined && { intervalMinutes: body.intervalMinutes }),
      });
    }
    scheduler.reschedule(workspaceId);
    return settings(workspaceId);
  }

  /** Turns sync off and forgets the key, stopping the run under way; what was synced stays on both sides. */
  async function clearSettings(workspaceId: string): Promise<SyncSettings> {
    await stop(workspaceId);
    await vault.remove(workspaceId);
    await book(workspaceId).saveSettings({ enabled: false, keyPrefix: null });
    scheduler.reschedule(workspaceId);
    return settings(workspaceId);
  }

  /** Starts a run (or joins the one under way); resolves when it has finished. */
  function run(workspaceId: string, options: { full?: boolean; onProgress?: (p: Progress) => void } = {}) {
    const current = running.get(workspaceId);
    if (current) return current.done;
    if (closed)
      return Promise.reject(serviceUnavailable('Folio is closing: sync runs again at the next start'));
    const progress = createProgress(options.onProgress);
    const stopper = new AbortController();
    const done = (async () => {
      const s = await book(workspaceId).settings();
      const key = await vault.get(workspaceId).catch(() => undefined);
      if (!s.remoteUrl || !key)
        throw badRequest('Sync is not set up for this workspace: give remoteUrl and key');
      const remote = createRemote({ baseUrl: s.remoteUrl, key, signal: stopper.signal });
      return runSync({
        store,
        assets: deps.assets,
        kinds,
        workspaceId,
        remote,
        book: book(workspaceId),
        progress,
        downloadsRoot: join(deps.dataDir, 'sync', 'downloads'),
        full: options.full,
      });
    })().finally(() => running.delete(workspaceId));
    running.set(workspaceId, { startedAt: new Date().toISOString(), progress, done, stop: stopper });
    return done;
  }

  /** Ends the run under way, if any, at once; resolves when it has settled (its summary saved). */
  async function stop(workspaceId: string): Promise<void> {
    const live = running.get(workspaceId);
    if (!live) return;
    live.stop.abort();
    await live.done.catch(() => undefined);
  }

  /** The app is closing: no more scheduled runs, and every run under way ends now rather than after its wait. */
  async function close(): Promise<void> {
    closed = true;
    scheduler.stop();
    await Promise.all([...running.keys()].map(stop));
  }

  async function status(workspaceId: string): Promise<SyncStatus> {
    const s = await book(workspaceId).settings();
    const live = running.get(workspaceId);
    const schedule = scheduler.stateOf(workspaceId);
    const configured = Boolean(s.remoteUrl && s.keyPrefix);
    return {
      enabled: s.enabled,
      configured,
      state: stateOf(Boolean(live), s.enabled && configured, schedule),
      running: live ? { startedAt: live.startedAt, ...live.progress.snapshot() } : null,
      lastRun: s.lastRun ?? null,
      lastSuccessAt: s.lastSuccessAt ?? null,
      nextRunAt:
        s.enabled && configured && schedule.nextRunAt ? new Date(schedule.nextRunAt).toISOString() : null,
      consecutiveFailures: schedule.failures,
      openConflicts: await createConflicts({ store, workspaceId, kinds }).countOpen(),
      failingItems: (await book(workspaceId).withErrors()).length,
    };
  }

  const conflictsOf = (workspaceId: string) => createConflicts({ store, workspaceId, kinds });

  return {
    settings,
    saveSettings,
    clearSettings,
    run,
    /**
     * Starts a run in the background (the dashboard's "Sync now"); its progress shows in status. A run under way
     * (an automatic one) may have begun before the change the owner wants sent, so one more follows it; clicks
     * while that one waits share it.
     */
    async start(workspaceId: string, options: { full?: boolean } = {}) {
      const s = await book(workspaceId).settings();
      if (!s.remoteUrl || !s.keyPrefix)
        throw badRequest('Sync is not set up for this workspace: PUT /api/v1/sync/settings first');
      const under = running.get(workspaceId)?.done.catch(() => undefined);
      const done = under ? under.then(() => run(workspaceId, options)) : run(workspaceId, options);
      scheduler.observe(workspaceId, done);
      done.catch(() => undefined);
    },
    status,
    conflicts: {
      list: async (workspaceId: string, which: 'open' | 'resolved' | 'all') =>
        (await conflictsOf(workspaceId).list(which === 'all' ? undefined : which)).map(presentConflict),
      get: async (workspaceId: string, id: string) => presentConflict(await conflictsOf(workspaceId).get(id)),
      async resolve(workspaceId: string, id: string, keep: 'winner' | 'copy') {
        const resolved = presentConflict(await conflictsOf(workspaceId).resolve(id, keep));
        if (keep === 'copy') scheduler.soon(workspaceId);
        return resolved;
      },
    },
    stop,
    close,
    scheduler,
  };
}

export type DesktopSync = ReturnType<typeof createDesktopSync>;

function presentConflict({
  copy,
  winner,
  seq: _feedPosition,
  ...rest
}: ConflictRecord & { seq?: number }): Conflict {
  const { blobKey, ...kept } = copy;
  return { ...rest, copy: { ...kept, hasBytes: Boolean(blobKey) }, winner };
}

/** A run under way shows whatever the settings say (a manual run may go while the schedule is off). */
function stateOf(
  live: boolean,
  on: boolean,
  schedule: { offline: boolean; failures: number },
): SyncStatus['state'] {
  if (live) return 'running';
  if (!on) return 'off';
  if (schedule.offline) return 'offline';
  return schedule.failures ? 'failing' : 'idle';
}

function explainRemote(error: unknown): never {
  if (error instanceof OfflineError) throw new HttpError(502, error.message);
  if (error instanceof RemoteError && (error.status === 401 || error.status === 403))
    throw badRequest(
      `The hosted Folio refused this key (${error.status}): ${String(error.body.error ?? '')}`,
    );
  if (error instanceof RemoteError && error.status === 404)
    throw badRequest('That URL answers, but not as a Folio with sync (404 on /api/v1/sync/info)');
  if (error instanceof RemoteError) throw new HttpError(502, error.message);
  if (error instanceof ProtocolError)
    throw badRequest(`That URL answers, but not as a Folio with sync (${error.path}: ${error.problem})`);
  throw error;
}
