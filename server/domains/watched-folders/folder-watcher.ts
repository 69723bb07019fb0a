/**
 * One folder watched with chokidar: each file is reported once its size has stopped changing (a recorder still
 * writing is left alone), files already there when Folio starts are reported too, and nothing is reached through a
 * link: links are neither followed into other folders nor reported as files.
 */
import type { Stats } from 'node:fs';
import { basename, extname } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';

/** chokidar's own default: two seconds without growth is a finished write. */
export const STABLE_MS = 2_000;
/** Subfolders deep enough for a recorder's date folders, bounded for a folder that is a whole disk. */
const DEPTH = 8;
/** Folio's own transcripts (written beside recordings), and files still arriving under a temporary name. */
const NEVER_IMPORTED = new Set(['.txt', '.srt', '.vtt', '.part', '.crdownload', '.download', '.tmp']);

export type FolderEvents = {
  /** A settled file (absolute path), at start or when it appears or changes. */
  onFile(path: string): void;
  /** The first scan is done: every file there at start has been reported. */
  onReady(): void;
  onError(error: Error): void;
};

export function watchFolder(
  root: string,
  events: FolderEvents,
  stableMs = STABLE_MS,
): { close(): Promise<void> } {
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: false,
    followSymlinks: false,
    awaitWriteFinish: { stabilityThreshold: stableMs, pollInterval: Math.min(100, stableMs) },
    depth: DEPTH,
    ignored: (path: string, stats?: Stats) => path !== root && isSkipped(path, stats),
  });
  watcher
    .on('add', (path) => events.onFile(path))
    .on('change', (path) => events.onFile(path))
    .on('ready', () => events.onReady())
    .on('error', (error) => events.onError(error as Error));
  return { close: () => watcher.close() };
}

/** Hidden files (.DS_Store, a sync tool's state), transcripts and partial downloads; links (stats is lstat's). */
export function isSkipped(path: string, stats?: Stats): boolean {
  if (basename(path).startsWith('.')) return true;
  if (stats?.isSymbolicLink()) return true;
  return Boolean(stats?.isFile()) && NEVER_IMPORTED.has(extname(path).toLowerCase());
}
