// The change feed of one workspace in the file backend: a counter that stamps every write with the next seq, and a
// log of (seq, collection, id) in seq order from which `Store.changes` answers. A row's older entries stay in the
// log until a compaction drops them; `latest` says which entry is current.
//
// A write is applied to memory before its journal line is on disk, and undone if the line fails. So that a reader
// never sees a change that is then undone (or skips one still under way below a change it saw), the feed answers
// only up to its horizon: the highest seq below every write still in flight.
import type { ChangePage, ChangeQuery } from '../types.js';

type Entry = { seq: number; collection: string; id: string };

export type FeedChange = Entry;

export function createChangeFeed() {
  let counter = 0;
  let stale = 0;
  let log: Entry[] = [];
  /** Each collection's ids to the seq of their latest change. */
  const latest = new Map<string, Map<string, number>>();
  const latestOf = (collection: string) => {
    let seqs = latest.get(collection);
    if (!seqs) {
      seqs = new Map();
      latest.set(collection, seqs);
    }
    return seqs;
  };
  const isLatest = (entry: Entry) => latest.get(entry.collection)?.get(entry.id) === entry.seq;
  const inFlight = new Set<number>();

  /** A change read from disk at start-up; call `loaded()` once all are in. */
  function load(collection: string, id: string, seq: number): void {
    log.push({ seq, collection, id });
    latestOf(collection).set(id, seq);
    if (seq > counter) counter = seq;
  }

  function loaded(): void {
    log.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Stamps a write to (collection, id) with the next seq. `settle` once its journal line is written or failed;
   * `undo` (before settling) when it failed, which makes the row's previous entry current again.
   */
  function begin(collection: string, id: string) {
    const seq = ++counter;
    const seqs = latestOf(collection);
    const previous = seqs.get(id);
    if (previous !== undefined) stale++;
    seqs.set(id, seq);
    log.push({ seq, collection, id });
    inFlight.add(seq);
    return {
      seq,
      undo() {
        if (seqs.get(id) !== seq) return;
        if (previous === undefined) seqs.delete(id);
        else seqs.set(id, previous);
      },
      settle() {
        inFlight.delete(seq);
        if (inFlight.size === 0 && stale > 1024 && stale > log.length / 2) compact();
      },
    };
  }

  function horizon(): number {
    let low = counter;
    for (const seq of inFlight) if (seq - 1 < low) low = seq - 1;
    return low;
  }

  /** The entries a page holds; the store turns each into a Change with its row. */
  function read(query: ChangeQuery): Omit<ChangePage, 'changes'> & { entries: Entry[] } {
    const head = horizon();
    const wanted = query.collections && new Set(query.collections);
    const entries: Entry[] = [];
    for (let i = firstAfter(query.since); i < log.length; i++) {
      const entry = log[i];
      if (entry.seq > head) break;
      if (!isLatest(entry)) continue;
      if (wanted && !wanted.has(entry.collection)) continue;
      if (entries.length >= query.limit)
        return { entries, next: entries.at(-1)?.seq ?? query.since, more: true, head };
      entries.push(entry);
    }
    return { entries, next: Math.max(head, query.since), more: false, head };
  }

  /** Index of the first entry with a seq above `since` (the log is in seq order). */
  function firstAfter(since: number): number {
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log[mid].seq <= since) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Drops superseded entries; only with nothing in flight, when no undo can need an older entry back. */
  function compact(): void {
    log = log.filter(isLatest);
    stale = 0;
  }

  return { load, loaded, begin, read, head: horizon, last: () => counter };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
