// Append-only journal of one collection: every mutation is one JSON line, written in batches
// (group commit) so a write costs its own bytes, not the size of the collection.
import { type FileHandle, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir } from './durable-file.js';

export type JournalEntry<T> = { op: 'put'; row: T } | { op: 'del'; id: string };

type Pending = { line: string; resolve: () => void; reject: (error: Error) => void };

export type JournalOptions = { fsync: boolean; onFlushed?: () => Promise<void> };

export function createJournal<T>(path: string, options: JournalOptions) {
  let handle: FileHandle | undefined;
  let pending: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let bytes = 0;

  function append(entry: JournalEntry<T>): Promise<void> {
    return new Promise((resolve, reject) => {
      pending.push({ line: `${JSON.stringify(entry)}\n`, resolve, reject });
      flushing ??= flushLoop();
    });
  }

  async function flushLoop(): Promise<void> {
    try {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        await writeBatch(batch);
      }
    } finally {
      flushing = undefined;
    }
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    try {
      if (!handle) {
        handle = await open(path, 'a');
        // Count what an earlier run left here too, or a server restarted often would never compact.
        bytes = (await handle.stat()).size;
        // The first open may have created the file (and mkdir its directories): name them durably too.
        if (options.fsync)
          for (const dir of [dirname(path), dirname(dirname(path)), dirname(dirname(dirname(path)))])
            await syncDir(dir);
      }
      const data = Buffer.from(batch.map((p) => p.line).join(''));
      await handle.write(data);
      if (options.fsync) await handle.datasync();
      bytes += data.length;
    } catch (error) {
      const failed = [...batch, ...pending];
      pending = [];
      for (const p of failed) p.reject(error as Error);
      return;
    }
    for (const p of batch) p.resolve();
    if (pending.length === 0 && options.onFlushed) await options.onFlushed();
  }

  /** Empties the journal once a snapshot holds everything it recorded. */
  async function reset(): Promise<void> {
    await handle?.close();
    handle = undefined;
    await truncate(path, 0).catch(ignoreMissing);
    bytes = 0;
  }

  async function close(): Promise<void> {
    while (flushing) await flushing;
    await handle?.close();
    handle = undefined;
  }

  return { append, reset, close, size: () => bytes, hasPending: () => pending.length > 0 };
}

export type Journal<T> = ReturnType<typeof createJournal<T>>;

/**
 * Reads every complete line. A torn last line (a crash mid-append, so never acknowledged) is cut off;
 * a damaged complete line is real corruption and refuses the start instead of dropping data.
 */
export async function readJournal<T>(path: string): Promise<JournalEntry<T>[]> {
  const text = await readFile(path, 'utf8').catch((error) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const lines = text.split('\n');
  const torn = lines.pop() ?? '';
  const entries = lines.map((line, index) => {
    try {
      return JSON.parse(line) as JournalEntry<T>;
    } catch {
      throw new Error(
        `${path} is damaged at line ${index + 1}; restore it from a backup or remove that line`,
      );
    }
  });
  if (torn !== '') await truncate(path, Buffer.byteLength(text) - Buffer.byteLength(torn));
  return entries;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
