/** A folder being watched, and how it is shown: its state, how much it imported, its latest failures. */
import type { Store } from '../../store/types.js';
import { watchedFilesCollection } from './collections.js';
import type { BesideFormat, WATCH_STATES, WatchedFolder, WatchedFolderFailure } from './schema.js';

export type Running = {
  id: string;
  /** As the user named it; `root` is its real path, which the files' names are relative to. */
  path: string;
  root: string;
  workspaceId: string | null;
  beside: BesideFormat[];
  origin: 'settings' | 'command line';
  state: (typeof WATCH_STATES)[number];
  problem: string | null;
  /** Files that failed before a transcript existed (unreadable, storage); the latest only. */
  errors: WatchedFolderFailure[];
  /** The import running now and those waiting behind it. */
  work: Promise<void>;
  watcher?: { close(): Promise<void> };
  retry?: NodeJS.Timeout;
};

const FAILURES_SHOWN = 5;

export function describeFolder(store: Store, entry: Running) {
  const rows = store.collection(watchedFilesCollection, entry.workspaceId ?? '');

  async function view(): Promise<WatchedFolder> {
    const counts = entry.workspaceId
      ? await Promise.all([
          rows.count({ folderId: entry.id }),
          rows.count({ folderId: entry.id, status: { in: ['importing', 'queued'] } }),
          rows.list({ where: { folderId: entry.id, status: 'failed' }, limit: FAILURES_SHOWN }),
        ])
      : ([0, 0, { rows: [] }] as const);
    const [imported, pending, failed] = counts;
    const failures = [
      ...entry.errors,
      ...failed.rows.map((r) => ({
        name: r.name,
        error: r.error ?? 'failed',
        transcriptId: r.transcriptId ?? null,
        at: r.updatedAt,
      })),
    ]
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, FAILURES_SHOWN);
    return {
      id: entry.id,
      path: entry.path,
      workspaceId: entry.workspaceId,
      beside: entry.beside,
      origin: entry.origin,
      state: entry.state,
      problem: entry.problem,
      imported,
      pending,
      failures,
    };
  }

  return { rows, view };
}
