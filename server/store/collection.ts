// One collection of records: all rows in memory, a JSON snapshot on disk (lowdb's format, written with
// fsync by durable-file.ts) plus a journal of the
// mutations since. Mutations apply to memory at once (so concurrent read-modify-writes see each other)
// and resolve when their journal line is on disk.
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { writeFileDurably } from './durable-file.js';
import { createJournal, readJournal } from './journal.js';

export type Row = { id: string };
type Snapshot<T> = { rows: T[] };

export type Collection<T extends Row> = {
  all(): T[];
  find(id: string): T | undefined;
  filter(predicate: (row: T) => boolean): T[];
  count(): number;
  insert(row: T): Promise<T>;
  update(id: string, change: Partial<T> | ((row: T) => T)): Promise<T | undefined>;
  remove(id: string): Promise<boolean>;
  close(): Promise<void>;
};

export type CollectionFiles = { snapshot: string; journal: string };
export type CollectionOptions = { fsync: boolean; compactAtBytes: number };

/** Loads the snapshot, then replays the journal over it. */
export async function loadRows<T extends Row>(files: CollectionFiles): Promise<Map<string, T>> {
  const db = new Low<Snapshot<T>>(new JSONFile(files.snapshot), { rows: [] });
  await db.read().catch((error) => {
    throw new Error(`${files.snapshot} could not be read (${error.message}); it was left untouched`);
  });
  const stored = (db.data as { rows?: unknown }).rows;
  if (!Array.isArray(stored) || !stored.every((row) => typeof row?.id === 'string'))
    throw new Error(
      `${files.snapshot} is not a Folio snapshot ({ rows: [{ id, ... }] }); it was left untouched`,
    );
  const rows = new Map<string, T>((stored as T[]).map((row) => [row.id, row]));
  for (const entry of await readJournal<T>(files.journal)) {
    if (entry.op === 'put') rows.set(entry.row.id, entry.row);
    else rows.delete(entry.id);
  }
  return rows;
}

export function createCollection<T extends Row>(
  files: CollectionFiles,
  rows: Map<string, T>,
  options: CollectionOptions & { snapshotBytes?: number },
): Collection<T> {
  let snapshotBytes = options.snapshotBytes ?? 0;
  // After a failed write the collection refuses further writes: memory may hold a change the disk
  // does not, and a restart reloads exactly the acknowledged state.
  let failure: Error | undefined;
  let ensuredDir: Promise<unknown> | undefined;

  const journal = createJournal<T>(files.journal, { fsync: options.fsync, onFlushed: compactIfDue });

  /** Called with nothing pending, so memory equals what the journal holds: safe to fold into a snapshot. */
  async function compactIfDue(): Promise<void> {
    if (journal.size() < Math.max(options.compactAtBytes, snapshotBytes)) return;
    // Written only now, synchronously from memory: nothing is pending, and rows are never mutated in place.
    const data = JSON.stringify({ rows: [...rows.values()] });
    await writeFileDurably(files.snapshot, data, options.fsync);
    snapshotBytes = (await stat(files.snapshot)).size;
    await journal.reset();
  }

  async function persist<R>(entry: Parameters<typeof journal.append>[0], result: R): Promise<R> {
    if (failure) throw failure;
    try {
      ensuredDir ??= mkdir(dirname(files.journal), { recursive: true });
      await ensuredDir;
      await journal.append(entry);
      return result;
    } catch (error) {
      failure = new Error(`Storage write failed: ${(error as Error).message}`);
      throw failure;
    }
  }

  return {
    all: () => [...rows.values()],
    find: (id) => rows.get(id),
    filter: (predicate) => [...rows.values()].filter(predicate),
    count: () => rows.size,
    insert(row) {
      if (rows.has(row.id)) return Promise.reject(new Error(`Duplicate id ${row.id}`));
      rows.set(row.id, row);
      return persist({ op: 'put', row }, row);
    },
    update(id, change) {
      const current = rows.get(id);
      if (!current) return Promise.resolve(undefined);
      const next = typeof change === 'function' ? change(current) : { ...current, ...change, id };
      rows.set(id, next);
      return persist({ op: 'put', row: next }, next);
    },
    remove(id) {
      if (!rows.delete(id)) return Promise.resolve(false);
      return persist({ op: 'del', id }, true);
    },
    close: () => journal.close(),
  };
}
