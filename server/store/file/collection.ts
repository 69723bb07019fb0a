// One collection of the file backend: every row in memory, a JSON snapshot on disk (lowdb's format, written with
// fsync by durable-file.ts) plus a journal of the mutations since. A mutation applies to memory at once, so
// concurrent read-check-writes see each other and conditional writes are atomic, and resolves when its journal
// line is on disk; if the line cannot be written the mutation is undone (journal.ts). In a workspace, every write
// is stamped with the next seq of the workspace's change feed (change-feed.ts) and a delete leaves a tombstone.
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { asStorageFailure, StoreConflict } from '../errors.js';
import type { Collection, CollectionSpec, Patch, Row, UpdateOptions, Where } from '../types.js';
import type { ChangeFeed } from './change-feed.js';
import { writeFileDurably } from './durable-file.js';
import type { FaultInjector } from './faults.js';
import { createJournal, type JournalEntry, readJournal } from './journal.js';
import { compileWhere, selectPage } from './query.js';
import type { UniqueIndexes } from './unique-indexes.js';

/** `tombstones`: seq of the delete of each removed id (workspace collections). */
type Snapshot<T> = { rows: T[]; tombstones?: Record<string, number> };

export type CollectionFiles = { snapshot: string; journal: string };
/** A collection's state in memory: its rows and the tombstones of removed ids. */
export type CollectionData<T> = { rows: Map<string, T>; tombstones: Map<string, number> };
export type CollectionOptions = {
  fsync: boolean;
  compactAtBytes: number;
  log: (line: string) => void;
  /** Marks a write under way; throws when the scope may no longer be written (a dropped workspace). */
  enterWrite: () => () => void;
  faults?: FaultInjector;
  /** How long a failed compaction waits before it is tried again. */
  compactionRetryMs: number;
  /** The workspace's change feed; absent for instance collections. */
  feed?: ChangeFeed;
};

/** Loads the snapshot, then replays the journal over it. */
export async function loadRows<T extends Row>(files: CollectionFiles): Promise<CollectionData<T>> {
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
  const tombstones = new Map<string, number>(Object.entries(db.data.tombstones ?? {}));
  for (const entry of await readJournal<T>(files.journal)) {
    if (entry.op === 'put') {
      rows.set(entry.row.id, entry.row);
      tombstones.delete(entry.row.id);
    } else {
      rows.delete(entry.id);
      if (entry.seq !== undefined) tombstones.set(entry.id, entry.seq);
    }
  }
  return { rows, tombstones };
}

/** The snapshot of `data`, serialised now (rows are never mutated in place, so this is a consistent copy). */
export const snapshotOf = <T>({ rows, tombstones }: CollectionData<T>): string =>
  JSON.stringify({ rows: [...rows.values()], tombstones: Object.fromEntries(tombstones) });

export function createFileCollection<T extends Row>(
  spec: CollectionSpec<T>,
  files: CollectionFiles,
  data: CollectionData<T>,
  unique: UniqueIndexes<T>,
  options: CollectionOptions & { snapshotBytes?: number },
): Collection<T> & { close(): Promise<void>; rows(): IterableIterator<T> } {
  const { rows, tombstones } = data;
  const { feed } = options;
  let snapshotBytes = options.snapshotBytes ?? 0;
  let compactionBlockedUntil = 0;
  let ensuredDir: Promise<unknown> | undefined;
  const journal = createJournal<T>(files.journal, {
    fsync: options.fsync,
    onFlushed: compactIfDue,
    faults: options.faults,
  });

  /** Called with nothing pending, so memory equals what the journal holds: safe to fold into a snapshot. */
  async function compactIfDue(): Promise<void> {
    if (journal.size() < Math.max(options.compactAtBytes, snapshotBytes)) return;
    if (Date.now() < compactionBlockedUntil) return;
    try {
      // Serialised now, synchronously from memory: nothing is pending, and rows are never mutated in place.
      await writeFileDurably(files.snapshot, snapshotOf(data), options.fsync, options.faults);
      snapshotBytes = (await stat(files.snapshot)).size;
      await journal.reset();
    } catch (error) {
      // The journal still holds everything: compaction only saves space, so it waits and tries again later.
      compactionBlockedUntil = Date.now() + options.compactionRetryMs;
      options.log(`Compacting ${files.snapshot} failed (${(error as Error).message}); will retry`);
    }
  }

  /**
   * Writes one row change (`next` undefined: a delete): stamps it with the feed's next seq, applies it to memory,
   * then waits for its journal line; undone in memory if the line fails. Resolves to the row as stored.
   */
  async function commit(id: string, next: T | undefined, leave: () => void): Promise<T | undefined> {
    const change = feed?.begin(spec.name, id);
    const row = next && change ? ({ ...next, seq: change.seq } as T) : next;
    const undoApply = apply(id, row, change?.seq);
    const undo = () => {
      undoApply();
      change?.undo();
    };
    const entry: JournalEntry<T> = row ? { op: 'put', row } : { op: 'del', id, seq: change?.seq };
    try {
      await write(entry, undo);
    } finally {
      change?.settle();
      leave();
    }
    return row;
  }

  async function write(entry: JournalEntry<T>, undo: () => void): Promise<void> {
    try {
      ensuredDir ??= mkdir(dirname(files.journal), { recursive: true }).catch((error) => {
        ensuredDir = undefined;
        throw error;
      });
      await ensuredDir;
    } catch (error) {
      undo();
      throw asStorageFailure(error);
    }
    await journal.append(entry, undo).catch((error) => {
      throw asStorageFailure(error);
    });
  }

  /** Applies a row change to memory, the unique indexes and the tombstones; returns its undo. */
  function apply(id: string, next: T | undefined, seq: number | undefined): () => void {
    const previous = rows.get(id);
    const previousTombstone = tombstones.get(id);
    if (next) rows.set(id, next);
    else rows.delete(id);
    if (next) tombstones.delete(id);
    else if (seq !== undefined) tombstones.set(id, seq);
    unique.replace(previous, next);
    return () => {
      if (previous) rows.set(id, previous);
      else rows.delete(id);
      if (previousTombstone === undefined) tombstones.delete(id);
      else tombstones.set(id, previousTombstone);
      unique.replace(next, previous);
    };
  }

  const matches = (row: T, where: Where<T> | undefined) => !where || compileWhere(spec, where)(row);

  return {
    async get(id) {
      return rows.get(id);
    },
    async findOne(where) {
      const test = compileWhere(spec, where);
      for (const row of rows.values()) if (test(row)) return row;
      return undefined;
    },
    async list(query) {
      return selectPage(spec, rows.values(), query);
    },
    async all(where, opts) {
      return selectPage(spec, rows.values(), {
        where,
        orderBy: opts?.orderBy ?? [['id', 'asc']],
        limit: opts?.limit ?? Number.POSITIVE_INFINITY,
      }).rows;
    },
    async count(where) {
      if (!where) return rows.size;
      const test = compileWhere(spec, where);
      let n = 0;
      for (const row of rows.values()) if (test(row)) n++;
      return n;
    },
    async sum(field, where) {
      const test = compileWhere(spec, where);
      let total = 0;
      for (const row of rows.values()) if (test(row)) total += Number(row[field] ?? 0);
      return total;
    },
    async insert(row) {
      const leave = options.enterWrite();
      try {
        if (rows.has(row.id)) throw new StoreConflict(spec.name, 'id', row.id);
        unique.check(row, undefined);
      } catch (error) {
        leave();
        throw error;
      }
      return (await commit(row.id, row, leave)) as T;
    },
    async update(id, patch: Patch<T>, opts?: UpdateOptions<T>) {
      const current = rows.get(id);
      if (!current || !matches(current, opts?.if)) return undefined;
      // Object.assign, not spread: V8 gives spread copies of parsed rows a shape each, which makes every later
      // comparison over the collection slow (bench/README.md "Async store").
      const next = Object.assign({}, current) as Record<string, unknown>;
      for (const field in patch) {
        const value = (patch as Record<string, unknown>)[field];
        if (value !== undefined) next[field] = value;
      }
      next.id = id;
      const leave = options.enterWrite();
      try {
        unique.check(next as T, current);
      } catch (error) {
        leave();
        throw error;
      }
      return commit(id, next as T, leave);
    },
    async remove(id, opts) {
      const current = rows.get(id);
      if (!current || !matches(current, opts?.if)) return false;
      const leave = options.enterWrite();
      await commit(id, undefined, leave);
      return true;
    },
    async tombstone(id) {
      return tombstones.get(id);
    },
    rows: () => rows.values(),
    close: () => journal.close(),
  };
}

/** Removes a collection's files (a dropped workspace's, before its directory goes). */
export async function removeCollectionFiles(files: CollectionFiles): Promise<void> {
  await rm(files.journal, { force: true });
  await rm(files.snapshot, { force: true });
}
