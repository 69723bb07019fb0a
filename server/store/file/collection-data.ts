// A file-backend collection's data: its rows and tombstones in memory, loaded from a JSON snapshot plus the
// journals of the changes since: the journals a compaction retired and has not yet folded in (oldest first), then
// the current one.
//
// A snapshot is lowdb's format, `{ "rows": [...], "tombstones": {...} }`, written one row to a line, so that it
// is written a chunk at a time and read a chunk at a time (line-file.ts), and stays one JSON document that any
// JSON reader (and an older Folio) reads whole. A snapshot without that layout (an older Folio's) is read whole.
import { open } from 'node:fs/promises';
import type { Row } from '../types.js';
import { type JournalEntry, readJournal } from './journal.js';
import { readLines } from './line-file.js';

/** `tombstones`: seq of the delete of each removed id (workspace collections). */
type Snapshot<T> = { rows: T[]; tombstones?: Record<string, number> };

export type CollectionFiles = {
  snapshot: string;
  journal: string;
  /** Where a compaction moves the journal it folds into the snapshot: `generation` numbers them in order. */
  retired(generation: number): string;
};
/** A collection's state in memory: its rows and the tombstones of removed ids. */
export type CollectionData<T> = { rows: Map<string, T>; tombstones: Map<string, number> };

const HEAD = '{"rows":[';
const TOMBSTONES = '],"tombstones":';
/** Rows per chunk of a snapshot written: small enough to make in a few milliseconds. */
const ROWS_PER_CHUNK = 500;

/** Loads the snapshot, then replays the retired journals (oldest first) and the current one over it. */
export async function loadRows<T extends Row>(
  files: CollectionFiles,
  retired: number[],
): Promise<CollectionData<T>> {
  const data = await readSnapshot<T>(files.snapshot);
  for (const path of [...retired.map((g) => files.retired(g)), files.journal])
    for (const entry of await readJournal<JournalEntry<T>>(path)) applyEntry(data, entry);
  return data;
}

async function readSnapshot<T extends Row>(path: string): Promise<CollectionData<T>> {
  const refuse = (why: string) => new Error(`${path} ${why}; it was left untouched`);
  const data: CollectionData<T> = { rows: new Map(), tombstones: new Map() };
  const head = await firstBytes(path, HEAD.length + 1);
  if (head === undefined) return data;
  if (head !== `${HEAD}\n`) return readWholeSnapshot(path, refuse);
  let ended = false;
  const read = await readLines(path, (line, number) => {
    if (number === 1 || ended) return;
    try {
      if (line.startsWith(TOMBSTONES)) {
        const tombstones = JSON.parse(line.slice(TOMBSTONES.length, -1)) as Record<string, number>;
        data.tombstones = new Map(Object.entries(tombstones));
        ended = true;
        return;
      }
      const row = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as T;
      if (typeof row?.id !== 'string') throw new Error('a row without an id');
      data.rows.set(row.id, row);
    } catch (error) {
      throw refuse(`could not be read at line ${number} (${(error as Error).message})`);
    }
  });
  if (!ended || read?.tail)
    throw refuse('ends before its tombstones (a snapshot is written whole or not at all)');
  return data;
}

/** An older Folio's snapshot (one JSON document without a row to a line), read and parsed whole. */
async function readWholeSnapshot<T extends Row>(
  path: string,
  refuse: (why: string) => Error,
): Promise<CollectionData<T>> {
  const handle = await open(path, 'r');
  let stored: Snapshot<T>;
  try {
    stored = JSON.parse(await handle.readFile('utf8'));
  } catch (error) {
    throw refuse(`could not be read (${(error as Error).message})`);
  } finally {
    await handle.close();
  }
  const rows = (stored as { rows?: unknown })?.rows;
  if (!Array.isArray(rows) || !rows.every((row) => typeof row?.id === 'string'))
    throw refuse('is not a Folio snapshot ({ rows: [{ id, ... }] })');
  return {
    rows: new Map((rows as T[]).map((row) => [row.id, row])),
    tombstones: new Map(Object.entries(stored.tombstones ?? {})),
  };
}

async function firstBytes(path: string, length: number): Promise<string | undefined> {
  const handle = await open(path, 'r').catch((error) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Applies one journal line to the data. */
export function applyEntry<T extends Row>({ rows, tombstones }: CollectionData<T>, entry: JournalEntry<T>) {
  if (entry.op === 'put') {
    rows.set(entry.row.id, entry.row);
    tombstones.delete(entry.row.id);
  } else {
    rows.delete(entry.id);
    if (entry.seq !== undefined) tombstones.set(entry.id, entry.seq);
  }
}

/** Applies a workspace row's change unless the data holds that row at that seq or a later one; true if it did. */
export function applyIfNewer<T extends Row>(data: CollectionData<T>, entry: JournalEntry<T>): boolean {
  const id = entry.op === 'put' ? entry.row.id : entry.id;
  const seq = (entry.op === 'put' ? entry.row.seq : entry.seq) ?? 0;
  const held = data.rows.get(id)?.seq ?? data.tombstones.get(id) ?? 0;
  if (seq <= held) return false;
  applyEntry(data, entry);
  return true;
}

/**
 * The snapshot of `rows` and `tombstones`, a chunk of rows at a time, each made only when asked for (rows are
 * never changed in place, so the array of them taken at a moment stays that moment's copy).
 */
export function* snapshotChunks<T>(rows: T[], tombstones: Map<string, number>): Iterable<string> {
  yield `${HEAD}\n`;
  for (let at = 0; at < rows.length; at += ROWS_PER_CHUNK) {
    const lines = rows.slice(at, at + ROWS_PER_CHUNK).map((row) => JSON.stringify(row));
    const last = at + ROWS_PER_CHUNK >= rows.length;
    yield `${lines.join(',\n')}${last ? '' : ','}\n`;
  }
  yield `${TOMBSTONES}${JSON.stringify(Object.fromEntries(tombstones))}}\n`;
}
