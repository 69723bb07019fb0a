// The PostgreSQL schema as Kysely sees it: the bookkeeping tables, the change feed, and one table per collection
// (`c_<name>`), each holding the whole row as JSONB plus a generated, indexed column per declared query field.
import { createHash } from 'node:crypto';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Row } from '../types.js';

export type CollectionTableName = `c_${string}`;

/** A collection's table. Declared fields are extra generated columns, reached with `sql.ref`. */
export interface CollectionTable {
  /** The workspace, or `INSTANCE_SCOPE` for instance-wide rows. */
  workspace_id: string;
  id: string;
  doc: ColumnType<Row, string, string>;
}

export interface Database {
  folio_migrations: { version: number; name: string; applied_at: Generated<Date> };
  folio_meta: { key: string; value: ColumnType<unknown, string, string> };
  /**
   * Every workspace that ever held a row; `dropped_at` makes a drop final for every node. `seq` is the workspace's
   * change counter: every write takes the next value under this row's lock and holds it until commit.
   */
  folio_workspaces: { id: string; dropped_at: Date | null; seq: ColumnType<string, never, never> };
  /** The latest change of each workspace row (feed.ts): its seq, and whether it was a delete (a tombstone). */
  folio_changes: {
    workspace_id: string;
    collection: string;
    id: string;
    seq: ColumnType<string, number, number>;
    deleted: boolean;
  };
  /** Which collections have tables, and the shape (fields, unique, search) each table was built for. */
  folio_collections: {
    name: string;
    table_name: CollectionTableName;
    shape: ColumnType<TableShape, string, string>;
  };
  [table: CollectionTableName]: CollectionTable;
}

export type Db = Kysely<Database>;

export type TableShape = { fields: Record<string, string>; unique: string[]; search: string[] };

/** The `workspace_id` of instance-wide rows: no workspace id is empty. */
export const INSTANCE_SCOPE = '';
/** What `lookup` answers for an instance-wide row, as the file backend does. */
export const INSTANCE_NAME = 'instance';

/** Names a collection may not declare as a field: every table's own columns, and `seq`, which the store stamps. */
export const RESERVED_COLUMNS = ['workspace_id', 'id', 'doc', 'seq'];

const MAX_IDENTIFIER = 63;

/** A PostgreSQL identifier from parts; past 63 bytes it is cut and made unique again with a hash. */
export function identifier(...parts: string[]): string {
  const name = parts.join('_');
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${Buffer.from(name)
    .subarray(0, MAX_IDENTIFIER - 9)
    .toString('utf8')
    .replace(/\uFFFD$/, '')}_${hash}`;
}

export const tableOf = (collection: string): CollectionTableName =>
  identifier('c', collection) as CollectionTableName;
export const uniqueIndexOf = (table: string, field: string) => identifier(table, field, 'key');
