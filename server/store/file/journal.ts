// Append-only journal of one collection: every mutation is one JSON line, written in batches (group commit),
// so a write costs its own bytes, not the size of the collection. Between two batches it can be retired (renamed
// aside for a compaction to fold into the snapshot) while the next lines go to a new, empty journal.
//
// A failed write (full disk, I/O error) must leave memory and disk agreeing on what was acknowledged: the bytes
// of the failed batch are cut back to the last whole line before anything else is appended, and the batch's
// mutations (and any queued behind it) are undone in memory, newest first, before their writers hear of it.
import { type FileHandle, open, rename, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir } from './durable-file.js';
import { type FaultInjector, injectedError } from './faults.js';
import { readLines } from './line-file.js';

/** `seq` of a delete: its tombstone's (absent for instance collections and for journals older than the feed). */
export type JournalEntry<T> = { op: 'put'; row: T } | { op: 'del'; id: string; seq?: number };

type Pending = {
  line: string;
  undo: () => void;
  written?: () => void;
  resolve: () => void;
  reject: (error: Error) => void;
};

type Retirement = { to: string; atCut: () => void; resolve: () => void; reject: (error: Error) => void };

export type JournalOptions = {
  fsync: boolean;
  /** Called after each batch is written (never awaited: it must not hold the next batch back). */
  afterBatch?: () => void;
  faults?: FaultInjector;
};

/** A journal of `L` lines: a collection's row changes (`JournalEntry`), or a workspace's units of work. */
export function createJournal<L>(path: string, options: JournalOptions) {
  let handle: FileHandle | undefined;
  let pending: Pending[] = [];
  let flushing: Promise<void> | undefined;
  /** Bytes of whole, acknowledged lines; anything after them is a failed write's fragment. */
  let committed = 0;
  let fragment = false;
  let retirement: Retirement | undefined;

  /**
   * Queues a line; `undo` reverts its in-memory mutation if the line never reaches the disk, `written` is called
   * at once (synchronously) when it has.
   */
  function append(entry: L, undo: () => void, written?: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      pending.push({ line: `${JSON.stringify(entry)}\n`, undo, written, resolve, reject });
      flushing ??= flushLoop();
    });
  }

  /**
   * Between two batches, renames the journal to `to` (the next lines start a new one) and calls `atCut` at once,
   * before any further line is written: `to` then holds exactly the lines written until `atCut`.
   */
  function retire(to: string, atCut: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      retirement = { to, atCut, resolve, reject };
      flushing ??= flushLoop();
    });
  }

  async function retireNow({ to, atCut, resolve, reject }: Retirement): Promise<void> {
    try {
      if (handle && fragment) await cutFragment(handle);
      await handle?.close();
      handle = undefined;
      await rename(path, to).catch(ignoreMissing);
      if (options.fsync) await syncDir(dirname(path));
      committed = 0;
      fragment = false;
    } catch (error) {
      reject(error as Error);
      return;
    }
    atCut();
    resolve();
  }

  async function flushLoop(): Promise<void> {
    try {
      while (pending.length > 0 || retirement) {
        if (retirement) {
          const next = retirement;
          retirement = undefined;
          await retireNow(next);
          continue;
        }
        const batch = pending;
        pending = [];
        await writeBatch(batch);
      }
    } finally {
      flushing = undefined;
    }
  }

  async function openHandle(): Promise<FileHandle> {
    if (handle) return handle;
    const opened = await open(path, 'a');
    try {
      committed = (await opened.stat()).size;
      // The first open may have created the file (and mkdir its directories): name them durably too.
      if (options.fsync)
        for (const dir of [dirname(path), dirname(dirname(path)), dirname(dirname(dirname(path)))])
          await syncDir(dir);
    } catch (error) {
      await opened.close();
      throw error;
    }
    handle = opened;
    return opened;
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    const data = Buffer.from(batch.map((p) => p.line).join(''));
    try {
      const file = await openHandle();
      if (fragment) await cutFragment(file);
      fragment = true;
      await write(file, data);
      const syncFault = options.faults?.({ op: 'journal-sync', path });
      if (syncFault) throw injectedError(syncFault, { op: 'journal-sync', path });
      if (options.fsync) await file.datasync();
      committed += data.length;
      fragment = false;
    } catch (error) {
      const failed = [...batch, ...pending];
      pending = [];
      for (const p of failed.toReversed()) p.undo();
      if (handle && fragment) await cutFragment(handle).catch(() => undefined);
      for (const p of failed) p.reject(error as Error);
      return;
    }
    for (const p of batch) p.written?.();
    for (const p of batch) p.resolve();
    options.afterBatch?.();
  }

  async function write(file: FileHandle, data: Buffer): Promise<void> {
    const step = { op: 'journal-append' as const, path };
    const fault = options.faults?.(step);
    if (!fault) return file.writeFile(data);
    if (fault.afterBytes) await file.writeFile(data.subarray(0, Math.min(fault.afterBytes, data.length)));
    throw injectedError(fault, step);
  }

  async function cutFragment(file: FileHandle): Promise<void> {
    await file.truncate(committed);
    if (options.fsync) await file.datasync();
    fragment = false;
  }

  /** Empties the journal once a snapshot holds everything it recorded. */
  async function reset(): Promise<void> {
    await handle?.close();
    handle = undefined;
    await truncate(path, 0).catch(ignoreMissing);
    committed = 0;
    fragment = false;
  }

  async function close(): Promise<void> {
    while (flushing) await flushing;
    await handle?.close();
    handle = undefined;
  }

  return { append, retire, reset, close, size: () => committed };
}

export type Journal<L> = ReturnType<typeof createJournal<L>>;

/**
 * Reads every complete line, a chunk at a time (line-file.ts). A torn last line (a crash mid-append, so never
 * acknowledged) is cut off; a damaged complete line is real corruption and refuses the start instead of dropping
 * data.
 */
export async function readJournal<L>(path: string): Promise<L[]> {
  const entries: L[] = [];
  const read = await readLines(path, (line, number) => {
    try {
      entries.push(JSON.parse(line) as L);
    } catch {
      throw new Error(`${path} is damaged at line ${number}; restore it from a backup or remove that line`);
    }
  });
  if (read && read.tail !== '') await truncate(path, read.bytes - Buffer.byteLength(read.tail));
  return entries;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
