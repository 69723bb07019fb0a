/**
 * Watched folders: each names a workspace; a recording that settles there is imported once per content and
 * transcribed (docs/transcription.md "Watched folders"). Folders come from the settings file (the desktop app) and
 * from --watch flags (a headless server, into the owner's personal workspace).
 */
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import type { Config } from '../../config.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Logger } from '../../log.js';
import type { Store } from '../../store/types.js';
import type { IdentityService } from '../identity/service.js';
import type { InstanceSettings } from '../settings/schema.js';
import type { TranscriptService } from '../transcripts/service.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { watchFolder } from './folder-watcher.js';
import { importRecording } from './import-recording.js';
import { describeFolder, type Running } from './running-folder.js';
import type { AddWatchedFolderBody, BesideFormat, WatchedFolder, WatchedFolderSetting } from './schema.js';
import { settleImport } from './settle-import.js';

/** Where the desktop app keeps its settings (settings-store.ts); a headless server has none. */
type InstanceSettingsStore = {
  read(): Promise<InstanceSettings>;
  write(settings: InstanceSettings): Promise<void>;
};

export type WatchedFolderDeps = {
  store: Store;
  config: Pick<Config, 'watch' | 'watchBeside'>;
  transcripts: TranscriptService;
  workspaces: WorkspaceService;
  identity: IdentityService;
  settings: () => InstanceSettingsStore | undefined;
  log: Logger;
  /** How long a file's size must hold still before it is imported (folder-watcher.ts STABLE_MS). */
  stableMs?: number;
};

/** How often a --watch folder looks again for the owner's personal workspace until the first sign-in makes it. */
const OWNER_RETRY_MS = 5_000;
const UNAVAILABLE_RETRY_MS = 30_000;

export const folderIdOf = (path: string) =>
  `wf_${createHash('sha256').update(path).digest('hex').slice(0, 16)}`;

export function createWatchedFolderService(deps: WatchedFolderDeps) {
  const { store, transcripts, log } = deps;
  const running = new Map<string, Running>();
  let closed = false;

  async function configured(): Promise<Array<Omit<Running, 'state' | 'problem' | 'errors' | 'work'>>> {
    const saved = (await deps.settings()?.read())?.watchedFolders ?? [];
    const fromSettings = saved.map((f) => ({ ...f, origin: 'settings' as const }));
    const fromFlags = deps.config.watch.map((path) => ({
      path,
      workspaceId: null,
      beside: deps.config.watchBeside,
      origin: 'command line' as const,
    }));
    return [...fromFlags, ...fromSettings].map((f) => ({ ...f, id: folderIdOf(f.path), root: f.path }));
  }

  async function start(): Promise<void> {
    for (const folder of await configured()) if (!running.has(folder.id)) await open(folder);
  }

  async function open(folder: Omit<Running, 'state' | 'problem' | 'errors' | 'work'>): Promise<void> {
    const entry: Running = {
      ...folder,
      state: 'starting',
      problem: null,
      errors: [],
      work: Promise.resolve(),
    };
    running.set(folder.id, entry);
    entry.workspaceId ??= await ownerWorkspace();
    if (!entry.workspaceId) {
      entry.state = 'waiting';
      return retryLater(entry, OWNER_RETRY_MS);
    }
    entry.root = await realpath(folder.path).catch(() => folder.path);
    if (!(await isFolder(entry.root)))
      return unavailable(entry, `${folder.path} is not a folder Folio can read`);
    await recover(entry);
    entry.watcher = watchFolder(
      entry.root,
      {
        onFile: (path) => enqueue(entry, path),
        onReady: () => {
          if (entry.state === 'starting') entry.state = 'watching';
        },
        onError: (error) => {
          void entry.watcher?.close();
          unavailable(entry, error.message);
        },
      },
      deps.stableMs,
    );
  }

  /** A folder that is gone (an unplugged disk) or unreadable is looked at again, and scanned again once back. */
  function unavailable(entry: Running, problem: string): void {
    entry.state = 'unavailable';
    entry.problem = `${problem}; Folio looks again every ${UNAVAILABLE_RETRY_MS / 1000} s`;
    retryLater(entry, UNAVAILABLE_RETRY_MS);
  }

  function retryLater(entry: Running, ms: number): void {
    entry.retry = setTimeout(() => reopen(entry), ms);
    entry.retry.unref();
  }

  function reopen(entry: Running): void {
    if (closed || running.get(entry.id) !== entry) return;
    running.delete(entry.id);
    void open(entry).catch((error) => log.warn(`Watched folder ${entry.path}: ${(error as Error).message}`));
  }

  async function ownerWorkspace(): Promise<string | null> {
    const ownerId = await deps.identity.ownerId();
    return ownerId ? ((await deps.workspaces.personalOf(ownerId))?.id ?? null) : null;
  }

  /** Rows left mid-way by the last run: an import that never queued is forgotten (its file is found again). */
  async function recover(entry: Running): Promise<void> {
    const { rows } = describeFolder(store, entry);
    for (const row of await rows.all({ folderId: entry.id, status: 'importing' })) await rows.remove(row.id);
    for (const row of await rows.all({ folderId: entry.id, status: 'queued' })) void settle(entry, row);
  }

  /** One import at a time per folder, so a folder of a thousand files reads one file at a time. */
  function enqueue(entry: Running, path: string): void {
    entry.work = entry.work.then(async () => {
      if (closed || !entry.workspaceId) return;
      const target = { id: entry.id, root: entry.root, workspaceId: entry.workspaceId };
      const tmpDir = store.tmpDir;
      const done = await importRecording({ store, transcripts, tmpDir }, target, path).catch(
        (error: Error) => {
          entry.errors = [
            { name: path, error: error.message, transcriptId: null, at: new Date().toISOString() },
          ];
          log.warn(`Watched folder: could not import ${path}: ${error.message}`);
          return undefined;
        },
      );
      if (done?.kind === 'imported') {
        log.info(`Watched folder: importing ${done.row.name} (transcript ${done.row.transcriptId})`);
        void settle(entry, done.row);
      }
    });
  }

  const settle = (entry: Running, row: Parameters<typeof settleImport>[2]) =>
    entry.workspaceId
      ? settleImport({ store, transcripts, log }, { ...entry, workspaceId: entry.workspaceId }, row).catch(
          (error: Error) => log.warn(`Watched folder: ${row.name}: ${error.message}`),
        )
      : undefined;

  async function list(): Promise<{ data: WatchedFolder[]; editable: boolean }> {
    const data = await Promise.all([...running.values()].map((entry) => describeFolder(store, entry).view()));
    return { data, editable: Boolean(deps.settings()) };
  }

  async function add(workspaceId: string, body: AddWatchedFolderBody): Promise<WatchedFolder> {
    const settings = editableSettings();
    if (!(await isFolder(body.path)))
      throw badRequest(`${body.path} is not a folder Folio can read`, {
        issues: [{ path: 'path', message: 'not a readable folder' }],
      });
    const id = folderIdOf(body.path);
    if (running.has(id)) throw conflict(`${body.path} is watched already`);
    const saved = await settings.read();
    const folder: WatchedFolderSetting = { path: body.path, workspaceId, beside: body.beside };
    await settings.write({ ...saved, watchedFolders: [...(saved.watchedFolders ?? []), folder] });
    await open({ ...folder, id, root: body.path, origin: 'settings' });
    return describeFolder(store, running.get(id) as Running).view();
  }

  async function remove(id: string): Promise<void> {
    const entry = running.get(id);
    if (!entry) throw notFound('Watched folder');
    if (entry.origin === 'command line')
      throw conflict(
        'This folder comes from a --watch flag: restart the server without it to stop watching it',
      );
    const settings = editableSettings();
    const saved = await settings.read();
    await settings.write({
      ...saved,
      watchedFolders: (saved.watchedFolders ?? []).filter((f) => f.path !== entry.path),
    });
    await stop(entry);
  }

  function editableSettings(): InstanceSettingsStore {
    const settings = deps.settings();
    if (!settings)
      throw conflict(
        'This server was started from the command line: name folders with --watch <dir> instead',
      );
    return settings;
  }

  async function stop(entry: Running): Promise<void> {
    running.delete(entry.id);
    clearTimeout(entry.retry);
    await entry.watcher?.close();
    await entry.work;
  }

  /** A deleted workspace's folders stop being watched and leave the settings. */
  async function dropWorkspace(workspaceId: string): Promise<void> {
    const gone = [...running.values()].filter(
      (e) => e.workspaceId === workspaceId && e.origin === 'settings',
    );
    for (const entry of gone) await remove(entry.id);
  }

  async function close(): Promise<void> {
    closed = true;
    await Promise.all([...running.values()].map(stop));
  }

  return { start, list, add, remove, dropWorkspace, close };
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

export type WatchedFolderService = ReturnType<typeof createWatchedFolderService>;
export type { BesideFormat };
