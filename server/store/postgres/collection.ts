// One collection in one scope. Every statement names the scope (`workspace_id = ...`): scoped() is the only way a
// query on a collection table is begun, and a test watches every statement the contract suite sends.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { encodeCursor } from '../cursor.js';
import type { Collection, CollectionSpec, Patch, Row, UpdateOptions, Where } from '../types.js';
import { type CollectionTableName, type Db, INSTANCE_SCOPE } from './database.js';
import { asStoreError } from './pg-errors.js';
import { afterCursorSql, columnOf, orderOf, orderSql, searchSql, whereSql } from './query.js';
import { serializeRow } from './utf8-text.js';
import type { WorkspaceRegistry } from './workspaces.js';

export type CollectionContext = {
  db: Db;
  /** The table, created or extended on first use. */
  table: () => Promise<CollectionTableName>;
  registry: WorkspaceRegistry;
};

export function createPostgresCollection<T extends Row>(
  spec: CollectionSpec<T>,
  scope: string,
  { db, table, registry }: CollectionContext,
): Collection<T> {
  const conditions = (where?: Where<T>, extra: RawBuilder<SqlBool>[] = []) => [
    ...whereSql(spec, where),
    ...extra,
  ];

  async function selectDocs(
    parts: RawBuilder<SqlBool>[],
    order?: RawBuilder<unknown>,
    limit?: number,
  ): Promise<T[]> {
    const t = await table();
    let query = db.selectFrom(t).select('doc').where('workspace_id', '=', scope);
    for (const part of parts) query = query.where(part);
    if (order) query = query.orderBy(order);
    if (limit !== undefined && Number.isFinite(limit)) query = query.limit(limit);
    const rows = await query.execute().catch(rethrow);
    return rows.map((r) => r.doc as T);
  }

  /** INSERT guarded by the workspace's registry row (shared lock, not dropped), or plain for instance rows. */
  async function insertRow(row: T): Promise<boolean> {
    const t = await table();
    const doc = serializeRow(row);
    if (scope === INSTANCE_SCOPE) {
      await db.insertInto(t).values({ workspace_id: scope, id: row.id, doc }).execute();
      return true;
    }
    const result = await db
      .insertInto(t)
      .columns(['workspace_id', 'id', 'doc'])
      .expression(
        db
          .selectFrom('folio_workspaces as w')
          .select([sql.val(scope).as('workspace_id'), sql.val(row.id).as('id'), sql.val(doc).as('doc')])
          .where('w.id', '=', scope)
          .where('w.dropped_at', 'is', null)
          .forShare(),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  return {
    async get(id) {
      return (await selectDocs([sql<SqlBool>`id = ${id}`]))[0];
    },
    async findOne(where) {
      return (await selectDocs(conditions(where), undefined, 1))[0];
    },
    async list(query) {
      const orderBy = orderOf(query);
      const extra = [...searchSql(spec, query.search)];
      const order = orderSql(spec, orderBy);
      if (query.cursor) extra.push(afterCursorSql(spec, orderBy, query.cursor));
      const rows = await selectDocs(conditions(query.where, extra), order, query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return {
        rows: page,
        nextCursor: rows.length > query.limit && last ? encodeCursor(last, orderBy) : null,
      };
    },
    async all(where, options) {
      const orderBy = options?.orderBy ?? [['id', 'asc']];
      return selectDocs(conditions(where), orderSql(spec, orderBy), options?.limit);
    },
    async count(where) {
      const t = await table();
      let query = db.selectFrom(t).select(sql<string>`count(*)`.as('n')).where('workspace_id', '=', scope);
      for (const part of conditions(where)) query = query.where(part);
      return Number((await query.executeTakeFirstOrThrow().catch(rethrow)).n);
    },
    async sum(field, where) {
      const t = await table();
      const value =
        field in spec.fields ? columnOf(spec, field).ref : sql`(doc ->> ${field})::double precision`;
      let query = db
        .selectFrom(t)
        .select(sql<number | null>`sum(${value})`.as('total'))
        .where('workspace_id', '=', scope);
      for (const part of conditions(where)) query = query.where(part);
      return Number((await query.executeTakeFirstOrThrow().catch(rethrow)).total ?? 0);
    },
    async insert(row) {
      try {
        if (await insertRow(row)) return row;
        await registry.register(scope);
        if (await insertRow(row)) return row;
      } catch (error) {
        throw asStoreError(error, spec, row);
      }
      throw await registry.goneError(scope);
    },
    async update(id, patch: Patch<T>, options?: UpdateOptions<T>) {
      const t = await table();
      const changes: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(patch))
        if (value !== undefined && field !== 'id') changes[field] = value;
      let query = db
        .updateTable(t)
        .set({ doc: sql<string>`doc || ${serializeRow(changes)}::jsonb` })
        .where('workspace_id', '=', scope)
        .where('id', '=', id);
      for (const part of conditions(options?.if)) query = query.where(part);
      const updated = await query
        .returning('doc')
        .executeTakeFirst()
        .catch((error) => {
          throw asStoreError(error, spec, changes);
        });
      return updated?.doc as T | undefined;
    },
    async remove(id, options) {
      const t = await table();
      let query = db.deleteFrom(t).where('workspace_id', '=', scope).where('id', '=', id);
      for (const part of conditions(options?.if)) query = query.where(part);
      const result = await query.executeTakeFirst().catch(rethrow);
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function rethrow(error: unknown): never {
  throw asStoreError(error);
}
