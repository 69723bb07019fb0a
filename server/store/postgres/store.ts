// The hosted backend's records: PostgreSQL through `pg` and Kysely. Any number of nodes may open the same
// database: schema changes take an advisory lock, writes are single statements or transactions, and nothing that
// decides an outcome is held in this process's memory. Loaded only when FOLIO_DATABASE_URL is set.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { consoleLogger, type Logger } from '../../log.js';
import type { BlobStore, CollectionSpec, Row, Store } from '../types.js';
import { runUnitOfWork } from '../unit-of-work.js';
import { createPostgresCollection, type TransactionRunner } from './collection.js';
import { type CollectionTableName, type Database, INSTANCE_NAME, INSTANCE_SCOPE } from './database.js';
import { readChanges } from './feed.js';
import { guardBlobs } from './guarded-blobs.js';
import { DATA_LOCK, enableTrigrams, migrate, withLock } from './migrations.js';
import { whereSql } from './query.js';
import { ensureTable } from './tables.js';
import { createPostgresUnit } from './unit-of-work.js';
import { utf8TextPlugin } from './utf8-text.js';
import { createWorkspaceRegistry } from './workspaces.js';

export type PostgresStoreOptions = {
  url: string;
  /** Where the bytes live (S3, or files on a volume every node mounts); the store guards dropped workspaces. */
  blobs: BlobStore;
  /** Names the blob backend in `backend` (`postgres+s3`). */
  blobBackend: string;
  /** This node's local scratch space. */
  tmpDir: string;
  poolSize?: number;
  log?: Logger;
  /** Sees every statement sent (tests check that each names its workspace). */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
};

export type PostgresStore = Store & {
  /** Runs `work` while no other node runs work under this lock (data migrations, start-up chores). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
};

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const log = options.log ?? consoleLogger;
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  // A connection that breaks (a restarted or dropped database) must not take the process down. The pool hears it
  // only while the connection is idle; one held by a unit or a lock reports on its client, and its next statement
  // fails instead. Each break is logged once, by the client's listener.
  pool.on('connect', (client) =>
    client.on('error', (error) => log.warn(`PostgreSQL connection lost: ${error.message}`)),
  );
  pool.on('error', () => {});
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [utf8TextPlugin],
    log: options.onQuery ? (event) => options.onQuery?.(event.query.sql, event.query.parameters) : undefined,
  });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const trigrams = await enableTrigrams(db);
  const registry = createWorkspaceRegistry(db);
  const tables = new Map<string, Promise<CollectionTableName>>();

  function tableFor<T extends Row>(spec: CollectionSpec<T>): () => Promise<CollectionTableName> {
    return () => {
      let table = tables.get(spec.name);
      if (!table) {
        table = ensureTable(db, spec, { trigrams });
        table.catch(() => tables.delete(spec.name));
        tables.set(spec.name, table);
      }
      return table;
    };
  }

  function open<T extends Row>(spec: CollectionSpec<T>, scope: string, unit?: TransactionRunner) {
    return createPostgresCollection(spec, scope, { db, table: tableFor(spec), registry, unit });
  }

  const blobs = guardBlobs(options.blobs, registry.isDropped);
  // A bucket untouched for a day is full again: the same as no row.
  const bucketSweep = setInterval(() => {
    sql`DELETE FROM folio_rate_limits WHERE at < now() - interval '1 day'`.execute(db).catch(() => {});
  }, 3600_000);
  bucketSweep.unref();

  return {
    backend: `postgres+${options.blobBackend}`,
    tmpDir: options.tmpDir,
    blobs,
    collection(spec, workspaceId) {
      if (!workspaceId) throw new Error(`${spec.name}: a workspace id is required`);
      return open(spec, workspaceId);
    },
    instance: (spec) => open(spec, INSTANCE_SCOPE),
    unitOfWork(workspaceId, work) {
      const rows = createPostgresUnit(db, (spec, unit) => open(spec, workspaceId, unit));
      // Once a unit has written it holds the workspace's change counter, and writers queued behind it may hold every
      // other connection of the pool: its blob writes ask about a drop on the unit's own connection, after the write.
      const unitBlobs = guardBlobs(options.blobs, (id) => rows.read((db) => registry.isDropped(id, db)), {
        checkBefore: false,
      });
      return runUnitOfWork(unitBlobs, rows, work);
    },
    async lookup(spec, field, value) {
      if (!(spec.unique ?? []).includes(field)) return undefined;
      const table = await tableFor(spec)();
      const found = await db
        .selectFrom(table)
        .select(['workspace_id', 'doc'])
        .where(sql`doc ->> ${sql.lit(field)}`, '=', value) // the unique index's own expression
        .executeTakeFirst();
      if (!found) return undefined;
      return {
        workspaceId: found.workspace_id === INSTANCE_SCOPE ? INSTANCE_NAME : found.workspace_id,
        row: found.doc as never,
      };
    },
    changes: (workspaceId, query) => readChanges(db, workspaceId, query),
    async workspacesWith(spec, where) {
      return registry.holding(await tableFor(spec)(), whereSql(spec, where));
    },
    async dropWorkspace(workspaceId) {
      await registry.drop(workspaceId);
      await blobs.deletePrefix(`workspaces/${workspaceId}`);
    },
    async schemaVersion() {
      const row = await db
        .selectFrom('folio_meta')
        .select('value')
        .where('key', '=', 'schemaVersion')
        .executeTakeFirst();
      return Number(row?.value ?? 0);
    },
    async setSchemaVersion(version) {
      const value = JSON.stringify(version);
      await db
        .insertInto('folio_meta')
        .values({ key: 'schemaVersion', value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    },
    async takeToken(id, perMinute, burst) {
      const { rows } = await sql<{
        wait: number;
      }>`SELECT folio_take_token(${id}, ${perMinute / 60}, ${burst}) AS wait`.execute(db);
      return rows[0]?.wait ?? 0;
    },
    exclusive: (work) => withLock(db, DATA_LOCK, work),
    async close() {
      clearInterval(bucketSweep);
      await db.destroy();
    },
  };
}
