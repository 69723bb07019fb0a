// The rows of a collection whose latest change is in memory but not yet on disk (its journal line is queued, or a
// unit of work holds it until its commit), with each one's value as last written: what a compaction takes instead
// of memory's, so a snapshot holds exactly what the journals it replaces held.
import type { Row } from '../types.js';
import type { JournalEntry } from './journal.js';

type Unwritten<T> = { changes: number; row: T | undefined; tombstone: number | undefined };

export function createUnwrittenRows<T extends Row>() {
  const unwritten = new Map<string, Unwritten<T>>();

  /** Notes a change about to apply to memory, over `previous`; answers its two ends: written, or dropped. */
  function track(id: string, previous: T | undefined, previousTombstone: number | undefined) {
    const pending = unwritten.get(id) ?? { changes: 0, row: previous, tombstone: previousTombstone };
    pending.changes++;
    unwritten.set(id, pending);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (--pending.changes === 0 && unwritten.get(id) === pending) unwritten.delete(id);
    };
    return {
      written(entry: JournalEntry<T>) {
        pending.row = entry.op === 'put' ? entry.row : undefined;
        pending.tombstone = entry.op === 'del' ? entry.seq : undefined;
        end();
      },
      dropped: end,
    };
  }

  /** Memory's rows and tombstones, less the changes not yet written. */
  function committed(rows: Map<string, T>, tombstones: Map<string, number>) {
    const taken: T[] = [];
    for (const [id, row] of rows) {
      const pending = unwritten.get(id);
      if (!pending) taken.push(row);
      else if (pending.row) taken.push(pending.row);
    }
    const takenTombstones = new Map(tombstones);
    for (const [id, pending] of unwritten) {
      if (!rows.has(id) && pending.row) taken.push(pending.row);
      if (pending.tombstone === undefined) takenTombstones.delete(id);
      else takenTombstones.set(id, pending.tombstone);
    }
    return { rows: taken, tombstones: takenTombstones };
  }

  return { track, committed };
}
