// A file-backend collection's data: its rows and tombstones in memory, loaded from a JSON snapshot (lowdb's
// format) plus the journal of the changes since.
import { rm } from 'node:fs/promises';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { Row } from '../types.js';
import { type JournalEntry, readJournal } from './journal.js';

/** `tombstones`: seq of the delete of each removed id (workspace collections). */
type Snapshot<T> = { rows: T[]; tombstones?: Record<string, number> };

export type CollectionFiles = { snapshot: string; journal: string };
/** A collection's state in memory: its rows and the tombstones of removed ids. */
export type CollectionData<T> = { rows: Map<string, T>; tombstones: Map<string, number> };

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
  const data = { rows, tombstones: new Map<string, number>(Object.entries(db.data.tombstones ?? {})) };
  for (const entry of await readJournal<JournalEntry<T>>(files.journal)) applyEntry(data, entry);
  return data;
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

/** The snapshot of `data`, serialised now (rows are never mutated in place, so this is a consistent copy). */
export const snapshotOf = <T>({ rows, tombstones }: CollectionData<T>): string =>
  JSON.stringify({ rows: [...rows.values()], tombstones: Object.fromEntries(tombstones) });

/** Removes a collection's files (a dropped workspace's, before its directory goes). */
export async function removeCollectionFiles(files: CollectionFiles): Promise<void> {
  await rm(files.journal, { force: true });
  await rm(files.snapshot, { force: true });
}
