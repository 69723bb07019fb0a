// One collection in one scope. Every statement names the scope (`workspace_id = ...`), and a test watches every
// statement the contract suite sends. A write in a workspace runs in one transaction with its change-feed stamp
// (feed.ts), which also refuses it once the workspace is dropped; instance rows have no feed. Inside a unit of
// work (unit-of-work.ts) every statement runs in the unit's transaction, each write under its own savepoint.
import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { encodeCursor } from '../cursor.js';
import type { Collection, CollectionSpec, Patch, Row, UpdateOptions, Where } from '../types.js';
import { type CollectionTableName, type Database, type Db, INSTANCE_SCOPE } from './database.js';
import { stampChange, tombstoneOf } from './feed.js';
import { asStoreError } from './pg-errors.js';
import { afterCursorSql, columnOf, orderOf, orderSql, searchSql, whereSql } from './query.js';
import { serializeRow } from './utf8-text.js';
import type { WorkspaceRegistry } from './workspaces.js';

export type CollectionContext = {
  db: Db;
  /** The table, created or extended on first use. */
  table: () => Promise<CollectionTableName>;
  registry: WorkspaceRegistry;
  /** The unit of work whose transaction runs this collection's statements; absent outside one. */
  unit?: TransactionRunner;
};

/** Runs statements in one transaction: `read` for reads, `atomically` for a write that must not half-happen. */
export type TransactionRunner = {
  read<R>(work: (db: Db) => Promise<R>): Promise<R>;
  atomically<R>(work: (trx: Transaction<Database>) => Promise<R>): Promise<R>;
};

export function createPostgresCollection<T extends Row>(
  spec: CollectionSpec<T>,
  scope: string,
  { db: pool, table, registry, unit }: CollectionContext,
): Collection<T> {
  const read = unit ? unit.read : <R>(work: (db: Db) => Promise<R>) => work(pool);
  const atomically = unit
    ? unit.atomically
    : <R>(work: (trx: Transaction<Database>) => Promise<R>) => pool.transaction().execute(work);
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
    const rows = await read((db) => {
      let query = db.selectFrom(t).select('doc').where('workspace_id', '=', scope);
      for (const part of parts) query = query.where(part);
      if (order) query = query.orderBy(order);
      if (limit !== undefined && Number.isFinite(limit)) query = query.limit(limit);
      return query.execute();
    }).catch(rethrow);
    return rows.map((r) => r.doc as T);
  }

  /**
   * Runs one workspace write in a transaction after its feed stamp; `work` answers undefined when nothing matched,
   * which rolls the stamp back. NOT_LIVE: the workspace was never registered or is dropped.
   */
  async function stamped<R>(
    id: string,
    deleted: boolean,
    work: (trx: Transaction<Database>, seq: number) => Promise<R | undefined>,
  ): Promise<R | undefined | typeof NOT_LIVE> {
    try {
      return await atomically(async (trx) => {
        const seq = await stampChange(trx, scope, spec.name, id, deleted);
        if (seq === undefined) throw new Rollback(NOT_LIVE);
        const result = await work(trx, seq);
        if (result === undefined) throw new Rollback(undefined);
        return result;
      });
    } catch (error) {
      if (error instanceof Rollback) return error.value as undefined | typeof NOT_LIVE;
      throw error;
    }
  }

  /** Inserts the row (stamped, in a workspace); undefined when the workspace is not live. */
  async function insertRow(t: CollectionTableName, row: T): Promise<T | undefined> {
    if (scope === INSTANCE_SCOPE) {
      await pool
        .insertInto(t)
        .values({ workspace_id: scope, id: row.id, doc: serializeRow(row) })
        .execute();
      return row;
    }
    const stored = await stamped(row.id, false, async (trx, seq) => {
      const next = { ...row, seq };
      await trx
        .insertInto(t)
        .values({ workspace_id: scope, id: row.id, doc: serializeRow(next) })
        .execute();
      return next;
    });
    return stored === NOT_LIVE ? undefined : stored;
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
      const { n } = await read((db) => {
        let query = db.selectFrom(t).select(sql<string>`count(*)`.as('n')).where('workspace_id', '=', scope);
        for (const part of conditions(where)) query = query.where(part);
        return query.executeTakeFirstOrThrow();
      }).catch(rethrow);
      return Number(n);
    },
    async sum(field, where) {
      const t = await table();
      const value =
        field in spec.fields ? columnOf(spec, field).ref : sql`(doc ->> ${field})::double precision`;
      const { total } = await read((db) => {
        let query = db
          .selectFrom(t)
          .select(sql<number | null>`sum(${value})`.as('total'))
          .where('workspace_id', '=', scope);
        for (const part of conditions(where)) query = query.where(part);
        return query.executeTakeFirstOrThrow();
      }).catch(rethrow);
      return Number(total ?? 0);
    },
    async insert(row) {
      const t = await table();
      try {
        let stored = await insertRow(t, row);
        if (!stored) {
          await registry.register(scope);
          stored = await insertRow(t, row);
        }
        if (stored) return stored;
      } catch (error) {
        throw asStoreError(error, spec, row);
      }
      throw await registry.goneError(scope);
    },
    async update(id, patch: Patch<T>, options?: UpdateOptions<T>) {
      const t = await table();
      const changes: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(patch))
        if (value !== undefined && field !== 'id' && field !== 'seq') changes[field] = value;
      const run = async (q: Db | Transaction<Database>, seq?: number) => {
        const set = seq === undefined ? changes : { ...changes, seq };
        let query = q
          .updateTable(t)
          .set({ doc: sql<string>`doc || ${serializeRow(set)}::jsonb` })
          .where('workspace_id', '=', scope)
          .where('id', '=', id);
        for (const part of conditions(options?.if)) query = query.where(part);
        const updated = await query.returning('doc').executeTakeFirst();
        return updated?.doc as T | undefined;
      };
      try {
        if (scope === INSTANCE_SCOPE) return await run(pool);
        const updated = await stamped(id, false, run);
        return updated === NOT_LIVE ? undefined : updated;
      } catch (error) {
        throw asStoreError(error, spec, changes);
      }
    },
    async remove(id, options) {
      const t = await table();
      const run = async (q: Db | Transaction<Database>) => {
        let query = q.deleteFrom(t).where('workspace_id', '=', scope).where('id', '=', id);
        for (const part of conditions(options?.if)) query = query.where(part);
        const result = await query.executeTakeFirst();
        return Number(result.numDeletedRows) > 0 || undefined;
      };
      try {
        if (scope === INSTANCE_SCOPE) return Boolean(await run(pool));
        return (await stamped(id, true, run)) === true;
      } catch (error) {
        rethrow(error);
      }
    },
    async tombstone(id) {
      if (scope === INSTANCE_SCOPE) return undefined;
      return read((db) => tombstoneOf(db, scope, spec.name, id)).catch(rethrow);
    },
  };
}

const NOT_LIVE = Symbol('workspace not live');

/** Thrown inside a write's transaction to roll it back and answer `value`. */
class Rollback {
  constructor(readonly value: unknown) {}
}

function rethrow(error: unknown): never {
  throw asStoreError(error);
}
