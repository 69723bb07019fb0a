// One collection of the file backend: every row in memory, a JSON snapshot on disk (lowdb's format, written with
// fsync by durable-file.ts) plus a journal of the mutations since. A mutation applies to memory at once, so
// concurrent read-check-writes see each other and conditional writes are atomic, and resolves when its journal
// line is on disk; if the line cannot be written the mutation is undone (journal.ts). In a workspace, every write
// is stamped with the next seq of the workspace's change feed (change-feed.ts) and a delete leaves a tombstone.
// Inside a unit of work (unit-of-work.ts) a write is held by the unit instead of journaled at once.
//
// Compaction folds the journal into the snapshot once it passes its threshold, whatever else is under way: between
// two batches the journal is retired (renamed aside; new lines start a new journal) and, at that moment, the
// committed rows are taken: memory, except rows whose latest change is not yet on disk (a line still queued, a
// unit's write not yet committed), which count as their last written value. The snapshot is then written a chunk
// at a time and the retired journals removed, oldest first; a crash at any point leaves a snapshot plus journals
// whose replay gives every acknowledged write (collection-data.ts).
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../../log.js';
import { asStorageFailure, StoreConflict } from '../errors.js';
import type { Collection, CollectionSpec, Patch, Row, UpdateOptions, Where } from '../types.js';
import type { ChangeFeed } from './change-feed.js';
import { type CollectionData, type CollectionFiles, snapshotChunks } from './collection-data.js';
import { writeChunksDurably } from './durable-file.js';
import type { FaultInjector } from './faults.js';
import { canNarrow, createFindIndex, type FindIndex, hasFindFields } from './find-index.js';
import { createJournal, type JournalEntry } from './journal.js';
import { createOrderIndex, type OrderIndex } from './order-index.js';
import { compileWhere, type Indexes, selectPage } from './query.js';
import type { UniqueIndexes } from './unique-indexes.js';
import { createUnwrittenRows } from './unwritten-rows.js';

export type CollectionOptions = {
  fsync: boolean;
  compactAtBytes: number;
  log: Logger;
  /** Marks a write under way; throws when the scope may no longer be written (a dropped workspace). */
  enterWrite: () => () => void;
  faults?: FaultInjector;
  /** How long a failed compaction waits before it is tried again. */
  compactionRetryMs: number;
  /** The workspace's change feed; absent for instance collections. */
  feed?: ChangeFeed;
  /** While an open unit of work holds row `id` of this collection: resolves when the unit has ended. */
  heldByUnit?: (id: string) => Promise<void> | undefined;
  /** The generations of the retired journals a crash or a failed compaction left, oldest first. */
  retired?: number[];
};

/** One write a unit holds until it commits (`land` copies it to its collection's journal) or undoes it. */
export type HeldWrite = {
  collection: string;
  id: string;
  entry: JournalEntry<Row>;
  undo(): void;
  /** Lets the change feed answer past the write (committed or undone). */
  settle(): void;
  land(): Promise<void>;
};

/** How a write reaches the disk: journaled at once, or held by a unit of work until it commits. */
type Committer<T> = {
  enter(): () => void;
  commit(id: string, next: T | undefined, leave: () => void): Promise<T | undefined>;
  /** While a unit of work holds the row, resolves when it has ended (an outside write waits); else undefined. */
  held(id: string): Promise<void> | undefined;
};

export type FileCollection<T extends Row> = Collection<T> & {
  /** This collection as a unit of work sees it: its writes go to `unit`, which commits or undoes them. */
  inUnit(unit: { hold(write: HeldWrite): void }): Collection<T>;
  close(): Promise<void>;
  rows(): IterableIterator<T>;
  /** Builds the find index (tags, searched text) in slices that yield; once, however often asked. */
  fillFindIndex(): Promise<void>;
};

export function createFileCollection<T extends Row>(
  spec: CollectionSpec<T>,
  files: CollectionFiles,
  data: CollectionData<T>,
  unique: UniqueIndexes<T>,
  options: CollectionOptions & { snapshotBytes?: number },
): FileCollection<T> {
  const { rows, tombstones } = data;
  const { feed } = options;
  /** The rows sorted by a field a page has been asked in; kept current by `apply`. */
  const orderIndexes = new Map<string, OrderIndex<T>>();
  const orderedBy = (field: keyof T & string) => {
    let index = orderIndexes.get(field);
    if (!index) {
      index = createOrderIndex(field, rows.values());
      orderIndexes.set(field, index);
    }
    return index;
  };
  /**
   * Tags and searched text to the rows holding them, then kept by `apply`. Filled when the server begins to serve
   * (store.fillFindIndexes) or at the first query it would narrow, not while the rows load: at 100,000 rows it is
   * seconds of work that would stand between a start and its first answer.
   */
  const findIndex: FindIndex<T> | undefined = hasFindFields(spec) ? createFindIndex(spec) : undefined;
  let filling: Promise<void> | undefined;
  const fillFindIndex = () => (filling ??= findIndex?.fill(rows, () => closed) ?? Promise.resolve());
  const indexes: Indexes<T> = {
    ordered: orderedBy,
    candidates(query) {
      if (!findIndex || !canNarrow(spec, query)) return undefined;
      void fillFindIndex();
      // Sorting k candidates costs about what reading rows in order until a page's 51 matches (51 · n / k rows)
      // does when k² ≈ 51 · n: past that, the rows are read in order, each first looked up among the ids.
      const limit = Math.max(1000, Math.round(Math.sqrt(64 * rows.size)));
      const found = findIndex.candidates(query, limit);
      if (!found) return undefined;
      return found.ids ? { few: rowsOf(found.ids) } : { among: found };
    },
  };
  function* rowsOf(ids: Iterable<string>): Iterable<T> {
    for (const id of ids) {
      const row = rows.get(id);
      if (row) yield row;
    }
  }
  let snapshotBytes = options.snapshotBytes ?? 0;
  let compactionBlockedUntil = 0;
  let compaction: Promise<void> | undefined;
  const retired = [...(options.retired ?? [])];
  let generation = retired.at(-1) ?? 0;
  let closed = false;
  let ensuredDir: Promise<unknown> | undefined;
  const unwritten = createUnwrittenRows<T>();
  const journal = createJournal<JournalEntry<T>>(files.journal, {
    fsync: options.fsync,
    afterBatch: compactIfDue,
    faults: options.faults,
  });

  /**
   * Past the threshold, compacts in the background. The threshold grows with the snapshot (a quarter of it), so
   * rewriting the snapshot costs a bounded multiple of what was journaled, and a start reads at most a quarter more
   * than the snapshot.
   */
  function compactIfDue(): void {
    if (compaction || closed || Date.now() < compactionBlockedUntil) return;
    if (journal.size() < Math.max(options.compactAtBytes, snapshotBytes / 4)) return;
    compaction = compact().finally(() => {
      compaction = undefined;
    });
  }

  async function compact(): Promise<void> {
    try {
      const to = files.retired(++generation);
      let cut: { rows: T[]; tombstones: Map<string, number> } | undefined;
      await journal.retire(to, () => {
        cut = unwritten.committed(rows, tombstones);
      });
      retired.push(generation);
      if (!cut) return;
      await writeChunksDurably(
        files.snapshot,
        snapshotChunks(cut.rows, cut.tombstones),
        options.fsync,
        options.faults,
      );
      snapshotBytes = (await stat(files.snapshot)).size;
      // Oldest first: whatever a crash leaves of them is always the newest lines, which replay over any snapshot.
      while (retired.length) {
        await rm(files.retired(retired[0]), { force: true });
        retired.shift();
      }
    } catch (error) {
      // The journals still hold everything: compaction only saves space, so it waits and tries again later.
      compactionBlockedUntil = Date.now() + options.compactionRetryMs;
      options.log.warn(`Compacting ${files.snapshot} failed (${(error as Error).message}); will retry`);
    }
  }

  /** Stamps a row change with the feed's next seq and applies it to memory; `undo` reverts both. */
  function stage(id: string, next: T | undefined) {
    const change = feed?.begin(spec.name, id);
    const row = next && change ? ({ ...next, seq: change.seq } as T) : next;
    const tracked = unwritten.track(id, rows.get(id), tombstones.get(id));
    const undoApply = apply(id, row, change?.seq);
    const entry: JournalEntry<T> = row ? { op: 'put', row } : { op: 'del', id, seq: change?.seq };
    const undo = () => {
      undoApply();
      change?.undo();
      tracked.dropped();
    };
    const written = () => tracked.written(entry);
    return { row, entry, undo, written, settle: () => change?.settle() };
  }

  /** Journals at once: resolves to the row as stored once its line is on disk; undone if the line fails. */
  const direct: Committer<T> = {
    enter: options.enterWrite,
    async commit(id, next, leave) {
      const { row, entry, undo, written, settle } = stage(id, next);
      try {
        await write(entry, undo, written);
      } finally {
        settle();
        leave();
      }
      return row;
    },
    held: (id) => options.heldByUnit?.(id),
  };

  function heldBy(unit: { hold(write: HeldWrite): void }): Committer<T> {
    return {
      enter: () => {
        options.enterWrite()();
        return () => {};
      },
      async commit(id, next) {
        const { row, entry, undo, written, settle } = stage(id, next);
        // Committed by the unit's own line: never undone here; a copy that fails stays in the unit journal.
        const land = () => write(entry, written, written);
        unit.hold({ collection: spec.name, id, entry: entry as JournalEntry<Row>, undo, settle, land });
        return row;
      },
      held: () => undefined,
    };
  }

  async function write(entry: JournalEntry<T>, undo: () => void, written: () => void): Promise<void> {
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
    await journal.append(entry, undo, written).catch((error) => {
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
    for (const index of orderIndexes.values()) index.replace(previous, next);
    findIndex?.replace(previous, next);
    return () => {
      if (previous) rows.set(id, previous);
      else rows.delete(id);
      if (previousTombstone === undefined) tombstones.delete(id);
      else tombstones.set(id, previousTombstone);
      unique.replace(next, previous);
      for (const index of orderIndexes.values()) index.replace(next, previous);
      findIndex?.replace(next, previous);
    };
  }

  const matches = (row: T, where: Where<T> | undefined) => !where || compileWhere(spec, where)(row);

  /** Waits while a unit of work holds the row; a write then checks what the unit left. */
  async function untilFree(committer: Committer<T>, id: string): Promise<void> {
    for (let held = committer.held(id); held; held = committer.held(id)) await held;
  }

  function writes(committer: Committer<T>) {
    return {
      async insert(row: T) {
        if (committer.held(row.id)) await untilFree(committer, row.id);
        const leave = committer.enter();
        try {
          if (rows.has(row.id)) throw new StoreConflict(spec.name, 'id', row.id);
          unique.check(row, undefined);
        } catch (error) {
          leave();
          throw error;
        }
        return (await committer.commit(row.id, row, leave)) as T;
      },
      async update(id: string, patch: Patch<T>, opts?: UpdateOptions<T>) {
        if (committer.held(id)) await untilFree(committer, id);
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
        const leave = committer.enter();
        try {
          unique.check(next as T, current);
        } catch (error) {
          leave();
          throw error;
        }
        return committer.commit(id, next as T, leave);
      },
      async remove(id: string, opts?: UpdateOptions<T>) {
        if (committer.held(id)) await untilFree(committer, id);
        const current = rows.get(id);
        if (!current || !matches(current, opts?.if)) return false;
        const leave = committer.enter();
        await committer.commit(id, undefined, leave);
        return true;
      },
    };
  }

  const reads: Omit<Collection<T>, 'insert' | 'update' | 'remove'> = {
    async get(id) {
      return rows.get(id);
    },
    async findOne(where) {
      const test = compileWhere(spec, where);
      for (const row of rows.values()) if (test(row)) return row;
      return undefined;
    },
    async list(query) {
      return selectPage(spec, rows.values(), query, indexes);
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
    async tombstone(id) {
      return tombstones.get(id);
    },
  };

  return {
    ...reads,
    ...writes(direct),
    inUnit: (unit) => ({ ...reads, ...writes(heldBy(unit)) }),
    rows: () => rows.values(),
    fillFindIndex,
    async close() {
      closed = true;
      await compaction;
      await journal.close();
    },
  };
}
