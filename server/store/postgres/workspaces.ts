// The workspace registry every node shares. A workspace is registered by its first row; every write takes its
// registry row's lock for the change counter (feed.ts) until it commits, and a drop sets `dropped_at` (waiting for
// those writes) before deleting the rows, so no write lands after a drop and none re-creates the workspace.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { ScopeGone } from '../errors.js';
import type { CollectionTableName, Db } from './database.js';

export function createWorkspaceRegistry(db: Db) {
  async function register(workspaceId: string): Promise<void> {
    await db
      .insertInto('folio_workspaces')
      .values({ id: workspaceId, dropped_at: null })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Asked on `via` when given (a unit's own connection), otherwise on the pool. */
  async function isDropped(workspaceId: string, via: Db = db): Promise<boolean> {
    const row = await via
      .selectFrom('folio_workspaces')
      .select('dropped_at')
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    return Boolean(row?.dropped_at);
  }

  /** The error for an insert the guarded statement refused: the workspace was dropped. */
  async function goneError(workspaceId: string): Promise<Error> {
    if (await isDropped(workspaceId)) return new ScopeGone(workspaceId);
    return new Error(`workspace ${workspaceId} could not be registered`);
  }

  /** Marks the workspace dropped, then deletes its feed and its rows from every collection table, in one transaction. */
  async function drop(workspaceId: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('folio_workspaces')
        .values({ id: workspaceId, dropped_at: sql<Date>`now()` })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ dropped_at: sql<Date>`coalesce(folio_workspaces.dropped_at, now())` }),
        )
        .execute();
      await trx.deleteFrom('folio_changes').where('workspace_id', '=', workspaceId).execute();
      const tables = await trx.selectFrom('folio_collections').select('table_name').execute();
      for (const { table_name } of tables)
        await trx
          .deleteFrom(table_name as CollectionTableName)
          .where('workspace_id', '=', workspaceId)
          .execute();
    });
  }

  /** Live workspaces holding at least one row of the table (meeting `conditions`, when given). */
  async function holding(
    table: CollectionTableName,
    conditions: RawBuilder<SqlBool>[] = [],
  ): Promise<string[]> {
    const rows = await db
      .selectFrom('folio_workspaces as w')
      .select('w.id')
      .where('w.dropped_at', 'is', null)
      .where(({ exists, selectFrom }) => {
        let inner = selectFrom(table).select(sql.lit(1).as('one')).whereRef('workspace_id', '=', 'w.id');
        for (const condition of conditions) inner = inner.where(condition);
        return exists(inner);
      })
      .execute();
    return rows.map((r) => r.id);
  }

  return { register, isDropped, goneError, drop, holding };
}

export type WorkspaceRegistry = ReturnType<typeof createWorkspaceRegistry>;
