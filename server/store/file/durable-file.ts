// What makes a write survive power loss, not only a crash: fsync the file, then the directory that names it
// (lowdb's writer never fsyncs; a missing fsync around rename is the classic way to lose a file).
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type FaultInjector, injectedError } from './faults.js';

/** fsyncs a directory so a file created or renamed in it stays named after power loss. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(ignoreUnsupported);
  if (!handle) return;
  try {
    await handle.sync().catch(ignoreUnsupported);
  } finally {
    await handle.close();
  }
}

/**
 * Directory syncs shared between writers, as a journal shares its flushes: a caller whose rename is done waits for
 * a sync that starts after it (never one already under way, which may have begun before the rename), and every
 * caller that arrives while that sync is still queued rides on it. Many files renamed into one directory at once
 * (a batch of uploads) then cost a few directory syncs instead of one each.
 */
export function createDirSyncer(sync: (dir: string) => Promise<void> = syncDir) {
  const queued = new Map<string, { running?: Promise<void>; next?: Promise<void> }>();
  return function syncDirShared(dir: string): Promise<void> {
    let state = queued.get(dir);
    if (!state) {
      state = {};
      queued.set(dir, state);
    }
    if (state.next) return state.next;
    const current = state;
    const next = (current.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        current.next = undefined;
        const run = sync(dir);
        current.running = run;
        void run
          .finally(() => {
            if (current.running === run && !current.next) queued.delete(dir);
          })
          .catch(() => undefined);
        return run;
      });
    current.next = next;
    return next;
  };
}

/** tmp + fsync + rename + fsync(dir): readers see the old or the new file, and after power loss too. */
export function writeFileDurably(
  path: string,
  data: string,
  fsync: boolean,
  faults?: FaultInjector,
): Promise<void> {
  return writeChunksDurably(path, [data], fsync, faults);
}

/**
 * As `writeFileDurably`, written a chunk at a time: each chunk is made only once the one before is written, so a
 * large file (a snapshot) neither holds the event loop nor sits in memory whole.
 */
export async function writeChunksDurably(
  path: string,
  chunks: Iterable<string> | AsyncIterable<string>,
  fsync: boolean,
  faults?: FaultInjector,
): Promise<void> {
  // A dot name, which the store skips when it lists collections (a crash may leave it behind).
  const tmp = join(dirname(path), `.${basename(path)}.tmp`);
  const handle = await open(tmp, 'w');
  try {
    const fault = faults?.({ op: 'snapshot-write', path });
    if (fault) throw injectedError(fault, { op: 'snapshot-write', path });
    for await (const chunk of chunks) await handle.writeFile(chunk);
    if (fsync) await handle.datasync();
  } catch (error) {
    await handle.close();
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(tmp, path);
  if (fsync) await syncDir(dirname(path));
}

// Windows cannot open or fsync a directory; NTFS journals the rename itself.
function ignoreUnsupported(error: NodeJS.ErrnoException): undefined {
  if (['EISDIR', 'EPERM', 'EINVAL', 'EACCES'].includes(error.code ?? '')) return undefined;
  throw error;
}
