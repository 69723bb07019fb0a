// Units of work on the file backend. A unit's writes apply to memory as they are made, as every write here does
// (so conditional writes inside and outside it see them), while the unit holds their rows: a write from outside
// to one of them waits until the unit has ended. The commit is one line holding every write, appended to the
// workspace's unit journal (`.units.log`); copies then go to each collection's own journal. At start-up the unit
// journal is replayed over the collections (a write applies unless its row has a newer seq), so a crash between
// the two loses nothing. A rollback undoes the writes in memory, newest first. One unit runs at a time in a
// workspace, as on PostgreSQL, where each write holds the workspace's change counter until commit.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../log.js';
import { asStorageFailure } from '../errors.js';
import type { ScopeGate } from '../scope-gate.js';
import type { BlobStore, Collection, CollectionSpec, Row, UnitOfWork } from '../types.js';
import { type RowUnit, runUnitOfWork } from '../unit-of-work.js';
import type { FileCollection, HeldWrite } from './collection.js';
import type { FaultInjector } from './faults.js';
import { createJournal, type Journal, type JournalEntry, readJournal } from './journal.js';

export const UNITS_JOURNAL = '.units.log';

export type UnitLine = { writes: Array<{ collection: string; entry: JournalEntry<Row> }> };

/** Past this size a unit journal whose units all landed is emptied. */
const RESET_AT_BYTES = 1 << 20;

export type FileUnitsOptions = {
  dirOf: (scope: string) => string;
  fsync: boolean;
  faults?: FaultInjector;
  gate: ScopeGate;
  blobs: BlobStore;
  open<T extends Row>(spec: CollectionSpec<T>, scope: string): FileCollection<T>;
  log: Logger;
};

export function createFileUnits(options: FileUnitsOptions) {
  const journals = new Map<string, Journal<UnitLine>>();
  /** The open unit of each workspace: the rows it holds, and when it ends. */
  const open = new Map<string, { held: Set<string>; ended: Promise<void> }>();
  const queues = new Map<string, Promise<unknown>>();
  /** Workspaces whose unit journal holds a unit that did not land in full: kept until the next start-up. */
  const unlanded = new Set<string>();

  function heldByUnit(scope: string, collection: string, id: string): Promise<void> | undefined {
    const unit = open.get(scope);
    return unit?.held.has(`${collection}\u0000${id}`) ? unit.ended : undefined;
  }

  /** Runs units of one workspace one after another. */
  function run<R>(scope: string, work: (tx: UnitOfWork) => Promise<R>): Promise<R> {
    const next = (queues.get(scope) ?? Promise.resolve()).then(() => runOne(scope, work));
    const tail = next.catch(() => undefined);
    queues.set(scope, tail);
    void tail.then(() => queues.get(scope) === tail && queues.delete(scope));
    return next;
  }

  async function runOne<R>(scope: string, work: (tx: UnitOfWork) => Promise<R>): Promise<R> {
    const leave = options.gate.enter(scope);
    let end = () => {};
    const unit = { held: new Set<string>(), ended: new Promise<void>((resolve) => (end = resolve)) };
    open.set(scope, unit);
    const writes: HeldWrite[] = [];
    const collections = new Map<string, Collection<Row>>();
    const sink = {
      hold(write: HeldWrite) {
        writes.push(write);
        unit.held.add(`${write.collection}\u0000${write.id}`);
      },
    };
    const rows: RowUnit = {
      collection<T extends Row>(spec: CollectionSpec<T>) {
        if (spec.scope !== 'workspace') throw new Error(`${spec.name}: a unit of work writes one workspace`);
        let collection = collections.get(spec.name);
        if (!collection) {
          collection = options.open(spec, scope).inUnit(sink) as unknown as Collection<Row>;
          collections.set(spec.name, collection);
        }
        return collection as unknown as Collection<T>;
      },
      commit: () => commit(scope, writes.splice(0)),
      async rollback() {
        const undone = writes.splice(0);
        for (const write of undone.toReversed()) write.undo();
        for (const write of undone) write.settle();
      },
    };
    try {
      return await runUnitOfWork(options.blobs, rows, work);
    } finally {
      open.delete(scope);
      end();
      leave();
    }
  }

  /** One line for the whole unit is the commit; the copies into the collections' journals follow. */
  async function commit(scope: string, writes: HeldWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const line: UnitLine = { writes: writes.map(({ collection, entry }) => ({ collection, entry })) };
    try {
      await mkdir(options.dirOf(scope), { recursive: true });
      await journalOf(scope).append(line, () => {});
    } catch (error) {
      for (const write of writes.toReversed()) write.undo();
      for (const write of writes) write.settle();
      throw asStorageFailure(error);
    }
    for (const write of writes) write.settle();
    const landed = await Promise.allSettled(writes.map((write) => write.land()));
    const failed = landed.find((result) => result.status === 'rejected');
    if (failed) {
      unlanded.add(scope);
      options.log.warn(`A unit of work's copy failed (${failed.reason?.message}); the unit journal keeps it`);
    } else if (!unlanded.has(scope) && journalOf(scope).size() > RESET_AT_BYTES)
      await journalOf(scope).reset();
  }

  function journalOf(scope: string): Journal<UnitLine> {
    let journal = journals.get(scope);
    if (!journal) {
      const path = join(options.dirOf(scope), UNITS_JOURNAL);
      journal = createJournal<UnitLine>(path, { fsync: options.fsync, faults: options.faults });
      journals.set(scope, journal);
    }
    return journal;
  }

  async function forget(scope: string): Promise<void> {
    await journals.get(scope)?.close();
    journals.delete(scope);
    unlanded.delete(scope);
  }

  async function close(): Promise<void> {
    for (const journal of journals.values()) await journal.close();
  }

  return { run, heldByUnit, forget, close };
}

/** The committed units of a workspace, oldest first, as its unit journal holds them. */
export const readUnits = (dir: string) => readJournal<UnitLine>(join(dir, UNITS_JOURNAL));
