// The change feed of a workspace on PostgreSQL. Every write in a workspace runs in one transaction that first
// takes the next value of the workspace's counter (folio_workspaces.seq) and records it in folio_changes, then
// writes the row. The counter's row lock is held until commit, so the writes of one workspace commit one at a
// time in seq order, on every node: the committed counter is a head below which nothing is still under way.
// A write that finds nothing to change rolls back, and its seq is never used.
import { sql, type Transaction } from 'kysely';
import type { ChangePage, ChangeQuery, Row } from '../types.js';
import { type Database, type Db, tableOf } from './database.js';

/**
 * Takes the workspace's next seq and makes it the latest change of (collection, id). Undefined when the workspace
 * is not live: never registered, or dropped (a drop holds the counter's lock, so a write after it sees the mark).
 */
export async function stampChange(
  trx: Transaction<Database>,
  workspaceId: string,
  collection: string,
  id: string,
  deleted: boolean,
): Promise<number | undefined> {
  const { rows } = await sql<{ seq: string }>`WITH counter AS (
      UPDATE folio_workspaces SET seq = seq + 1 WHERE id = ${workspaceId} AND dropped_at IS NULL RETURNING seq)
    INSERT INTO folio_changes (workspace_id, collection, id, seq, deleted)
      SELECT ${workspaceId}, ${collection}, ${id}, counter.seq, ${deleted} FROM counter
    ON CONFLICT (workspace_id, collection, id) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted
    RETURNING seq`.execute(trx);
  return rows[0] ? Number(rows[0].seq) : undefined;
}

/** The seq of the delete that removed (collection, id), while it is that row's latest change. */
export async function tombstoneOf(
  db: Db,
  workspaceId: string,
  collection: string,
  id: string,
): Promise<number | undefined> {
  const found = await db
    .selectFrom('folio_changes')
    .select('seq')
    .where('workspace_id', '=', workspaceId)
    .where('collection', '=', collection)
    .where('id', '=', id)
    .where('deleted', '=', true)
    .executeTakeFirst();
  return found ? Number(found.seq) : undefined;
}

/** One page of the feed, read in one snapshot: the head, the entries up to it, and their rows. */
export async function readChanges(db: Db, workspaceId: string, query: ChangeQuery): Promise<ChangePage> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const counter = await trx
        .selectFrom('folio_workspaces')
        .select('seq')
        .where('id', '=', workspaceId)
        .where('dropped_at', 'is', null)
        .executeTakeFirst();
      if (!counter) return { changes: [], next: query.since, more: false, head: 0 };
      const head = Number(counter.seq);
      let entries = trx
        .selectFrom('folio_changes')
        .select(['collection', 'id', 'seq', 'deleted'])
        .where('workspace_id', '=', workspaceId)
        .where(sql<boolean>`seq > ${query.since} AND seq <= ${head}`);
      if (query.collections)
        entries = entries.where(sql<boolean>`collection = ANY(${query.collections}::text[])`);
      const found = await entries
        .orderBy('seq')
        .limit(query.limit + 1)
        .execute();
      const more = found.length > query.limit;
      const page = found.slice(0, query.limit);
      const rows = await rowsOf(trx, workspaceId, page);
      const changes = page.map(({ collection, id, seq, deleted }) => ({
        collection,
        id,
        seq: Number(seq),
        row: deleted ? null : (rows.get(`${collection}\u0000${id}`) ?? null),
      }));
      const next = more ? (changes.at(-1)?.seq ?? query.since) : Math.max(head, query.since);
      return { changes, next, more, head };
    });
}

/** The rows of the page's live entries, one query per collection, keyed by collection and id. */
async function rowsOf(
  trx: Transaction<Database>,
  workspaceId: string,
  entries: Array<{ collection: string; id: string; deleted: boolean }>,
): Promise<Map<string, Row>> {
  const ids = new Map<string, string[]>();
  for (const { collection, id, deleted } of entries) {
    if (deleted) continue;
    const list = ids.get(collection) ?? [];
    list.push(id);
    ids.set(collection, list);
  }
  const rows = new Map<string, Row>();
  for (const [collection, wanted] of ids) {
    const found = await trx
      .selectFrom(tableOf(collection))
      .select(['id', 'doc'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', sql<string>`ANY(${wanted}::text[])`)
      .execute();
    for (const { id, doc } of found) rows.set(`${collection}\u0000${id}`, doc);
  }
  return rows;
}
