// The bookkeeping schema, versioned: each step runs once, in order, inside one transaction, while the node
// holds a session advisory lock, so two nodes starting together never migrate at once.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, Db } from './database.js';

type Step = { version: number; name: string; up(trx: Transaction<Database>): Promise<void> };

/** pg_advisory_lock keys: schema changes (migrations, collection tables), and data migrations ("Folio", "FolioD"). */
export const SCHEMA_LOCK = 0x466f6c696f;
export const DATA_LOCK = 0x466f6c696f44;

const steps: Step[] = [
  {
    version: 1,
    name: 'bookkeeping tables and field extractors',
    async up(trx) {
      await sql`CREATE TABLE folio_meta (key text PRIMARY KEY, value jsonb NOT NULL)`.execute(trx);
      await sql`CREATE TABLE folio_workspaces (id text COLLATE "C" PRIMARY KEY, dropped_at timestamptz)`.execute(
        trx,
      );
      await sql`CREATE TABLE folio_collections (name text PRIMARY KEY, table_name text NOT NULL UNIQUE, shape jsonb NOT NULL)`.execute(
        trx,
      );
      // Generated columns read declared fields out of the row; a value of another JSON type reads as NULL
      // rather than failing the write, as the file backend stores whatever it is given.
      await sql`CREATE FUNCTION folio_text(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN CASE WHEN jsonb_typeof(v) = 'string' THEN v #>> '{}' END`.execute(trx);
      await sql`CREATE FUNCTION folio_number(v jsonb) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN CASE WHEN jsonb_typeof(v) = 'number' THEN (v #>> '{}')::double precision END`.execute(trx);
      await sql`CREATE FUNCTION folio_boolean(v jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN CASE WHEN jsonb_typeof(v) = 'boolean' THEN (v #>> '{}')::boolean END`.execute(trx);
      await sql`CREATE FUNCTION folio_text_array(v jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
        BEGIN ATOMIC SELECT CASE WHEN jsonb_typeof(v) = 'array'
          THEN ARRAY(SELECT jsonb_array_elements_text(v)) END; END`.execute(trx);
      // Search folds case with ICU where the server has it (every letter), else lower() (ASCII under "C").
      const icu = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_collation WHERE collname = 'und-x-icu'`.execute(trx);
      const fold = icu.rows[0]?.n ? sql`lower(v COLLATE "und-x-icu")` : sql`lower(v)`;
      await sql`CREATE FUNCTION folio_fold(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN ${fold}`.execute(
        trx,
      );
    },
  },
  {
    version: 2,
    name: 'rate-limit buckets every node shares',
    async up(trx) {
      // Unlogged: a bucket is worth nothing after a crash (it refills within a minute), so it skips the WAL.
      await sql`CREATE UNLOGGED TABLE folio_rate_limits (
        id text PRIMARY KEY, tokens double precision NOT NULL, at timestamptz NOT NULL)`.execute(trx);
      // One token bucket step under the row's lock: refill for the time since the last call, then take one if
      // there is one. Answers 0 (taken) or the seconds until a token is back.
      await sql`CREATE FUNCTION folio_take_token(p_id text, p_per_second double precision, p_burst double precision)
        RETURNS double precision LANGUAGE plpgsql AS $$
        DECLARE
          t double precision;
          at_now timestamptz := clock_timestamp();
        BEGIN
          -- a bucket lost in a crash costs nothing: this commit need not wait for the WAL to reach the disk
          PERFORM set_config('synchronous_commit', 'off', true);
          INSERT INTO folio_rate_limits AS b (id, tokens, at) VALUES (p_id, p_burst, at_now)
          ON CONFLICT (id) DO UPDATE
            SET tokens = least(p_burst, b.tokens + greatest(0, extract(epoch FROM at_now - b.at)) * p_per_second),
                at = at_now
          RETURNING tokens INTO t;
          IF t >= 1 THEN
            UPDATE folio_rate_limits SET tokens = t - 1 WHERE id = p_id;
            RETURN 0;
          END IF;
          RETURN (1 - t) / p_per_second;
        END $$`.execute(trx);
    },
  },
  {
    version: 3,
    name: 'per-workspace change feed',
    async up(trx) {
      await sql`ALTER TABLE folio_workspaces ADD COLUMN seq bigint NOT NULL DEFAULT 0`.execute(trx);
      await sql`CREATE TABLE folio_changes (
        workspace_id text COLLATE "C" NOT NULL,
        collection text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        deleted boolean NOT NULL,
        PRIMARY KEY (workspace_id, collection, id))`.execute(trx);
      await sql`CREATE UNIQUE INDEX folio_changes_seq ON folio_changes (workspace_id, seq)`.execute(trx);
      await backfillSeqs(trx);
    },
  },
  {
    version: 4,
    name: 'GIN indexes without a pending list',
    async up(trx) {
      // What tables.ts now makes, for the indexes made before: a search no longer reads unmerged entries.
      const { rows } = await sql<{ name: string }>`SELECT index_class.relname AS name
        FROM pg_index
        JOIN pg_class AS index_class ON index_class.oid = pg_index.indexrelid
        JOIN pg_am ON pg_am.oid = index_class.relam
        JOIN pg_class AS table_class ON table_class.oid = pg_index.indrelid
        WHERE pg_am.amname = 'gin' AND pg_table_is_visible(table_class.oid)
          AND table_class.relname IN (SELECT table_name FROM folio_collections)`.execute(trx);
      for (const { name } of rows) {
        await sql`ALTER INDEX ${sql.id(name)} SET (fastupdate = off)`.execute(trx);
        await sql`SELECT gin_clean_pending_list(quote_ident(${name})::regclass)`.execute(trx);
      }
    },
  },
];

/**
 * Rows written before the feed existed get seqs, per workspace in creation order (then collection and id), as
 * the file backend numbers unsequenced rows; each workspace's counter starts after them.
 */
async function backfillSeqs(trx: Transaction<Database>): Promise<void> {
  const tables = await trx.selectFrom('folio_collections').select(['name', 'table_name']).execute();
  if (tables.length === 0) return;
  const rows = sql.join(
    tables.map(
      ({ name, table_name }) =>
        sql`SELECT workspace_id, ${sql.lit(name)} AS collection, id, doc ->> 'createdAt' AS created
          FROM ${sql.table(table_name)} WHERE workspace_id <> ''`,
    ),
    sql` UNION ALL `,
  );
  await sql`INSERT INTO folio_changes (workspace_id, collection, id, seq, deleted)
    SELECT workspace_id, collection, id,
      row_number() OVER (PARTITION BY workspace_id ORDER BY created NULLS FIRST, collection, id), false
    FROM (${rows}) AS r
    WHERE workspace_id NOT IN (SELECT id FROM folio_workspaces WHERE dropped_at IS NOT NULL)`.execute(trx);
  for (const { name, table_name } of tables)
    await sql`UPDATE ${sql.table(table_name)} AS t SET doc = t.doc || jsonb_build_object('seq', c.seq)
      FROM folio_changes AS c
      WHERE c.workspace_id = t.workspace_id AND c.collection = ${sql.lit(name)} AND c.id = t.id`.execute(trx);
  await sql`INSERT INTO folio_workspaces (id, dropped_at, seq)
    SELECT workspace_id, NULL, max(seq) FROM folio_changes GROUP BY workspace_id
    ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`.execute(trx);
}

export const STORE_SCHEMA_VERSION = steps.length;

/**
 * Runs `work` while holding an advisory lock on one connection of the pool. Work under DATA_LOCK may change the
 * schema (it takes SCHEMA_LOCK on another connection); work under SCHEMA_LOCK never waits for DATA_LOCK.
 */
export async function withLock<T>(db: Db, key: number, work: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${key})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

export const withSchemaLock = <T>(db: Db, work: () => Promise<T>) => withLock(db, SCHEMA_LOCK, work);

/** Brings the bookkeeping schema to STORE_SCHEMA_VERSION; refuses a database written by a newer Folio. */
export async function migrate(db: Db): Promise<void> {
  await withSchemaLock(db, async () => {
    await sql`CREATE TABLE IF NOT EXISTS folio_migrations (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
      db,
    );
    const applied = await db
      .selectFrom('folio_migrations')
      .select(({ fn }) => fn.max('version').as('v'))
      .executeTakeFirst();
    const current = Number(applied?.v ?? 0);
    if (current > STORE_SCHEMA_VERSION)
      throw new Error(`This database was set up by a newer Folio (store schema ${current})`);
    for (const step of steps.filter((s) => s.version > current)) {
      await db.transaction().execute(async (trx) => {
        await step.up(trx);
        await trx.insertInto('folio_migrations').values({ version: step.version, name: step.name }).execute();
      });
    }
  });
}

/** pg_trgm makes substring search use an index; without it (or the right to create it) search still works. */
export async function enableTrigrams(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    return true;
  } catch {
    return false;
  }
}
