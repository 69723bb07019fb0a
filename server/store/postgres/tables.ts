// A collection's table, made from its CollectionSpec on first use: the row as JSONB, each declared field a
// generated column with its index (text[] with GIN), each unique field a unique index across the instance, each
// searched field a trigram index. The GIN indexes (lists, trigrams) keep no pending list (`fastupdate = off`): with
// one, every search also reads the entries inserted since the last vacuum one by one (after 100,000 one-row
// inserts a rare search took 7.7–69 ms, against 1.9–2.6 ms without; the inserts took 2–16% longer:
// bench/postgres-search-index.ts). Changes are additive (a node running older code never drops what a newer one
// added) and run under the schema lock; folio_collections records the shape each table was built for.
import { type RawBuilder, sql } from 'kysely';
import type { CollectionSpec, FieldType, Row } from '../types.js';
import {
  type CollectionTableName,
  type Db,
  identifier,
  RESERVED_COLUMNS,
  type TableShape,
  tableOf,
  uniqueIndexOf,
} from './database.js';
import { withSchemaLock } from './migrations.js';

const COLUMN: Record<FieldType, { type: RawBuilder<unknown>; extract: string }> = {
  text: { type: sql`text COLLATE "C"`, extract: 'folio_text' },
  number: { type: sql`double precision`, extract: 'folio_number' },
  boolean: { type: sql`boolean`, extract: 'folio_boolean' },
  'text[]': { type: sql`text[] COLLATE "C"`, extract: 'folio_text_array' },
};

export function shapeOf<T extends Row>(spec: CollectionSpec<T>): TableShape {
  const fields = Object.fromEntries(Object.entries(spec.fields).filter(([, type]) => type)) as Record<
    string,
    FieldType
  >;
  for (const field of Object.keys(fields))
    if (RESERVED_COLUMNS.includes(field))
      throw new Error(`${spec.name}: a field may not be named "${field}"`);
  const search = (spec.search ?? []).map(String);
  for (const field of search)
    if (fields[field] !== 'text')
      throw new Error(`${spec.name}: searched field "${field}" must be a declared text field`);
  return { fields, unique: (spec.unique ?? []).map(String).sort(), search: [...search].sort() };
}

/** True when `built` already has everything `wanted` needs. */
function covers(built: TableShape, wanted: TableShape): boolean {
  return (
    Object.entries(wanted.fields).every(([field, type]) => built.fields[field] === type) &&
    wanted.unique.every((f) => built.unique.includes(f)) &&
    wanted.search.every((f) => built.search.includes(f))
  );
}

function merge(built: TableShape | undefined, wanted: TableShape): TableShape {
  return {
    fields: { ...built?.fields, ...wanted.fields },
    unique: [...new Set([...(built?.unique ?? []), ...wanted.unique])].sort(),
    search: [...new Set([...(built?.search ?? []), ...wanted.search])].sort(),
  };
}

export type TableOptions = { trigrams: boolean };

/** Creates or extends the collection's table; resolves to its name. */
export async function ensureTable<T extends Row>(
  db: Db,
  spec: CollectionSpec<T>,
  options: TableOptions,
): Promise<CollectionTableName> {
  const wanted = shapeOf(spec);
  const table = tableOf(spec.name);
  const read = () =>
    db.selectFrom('folio_collections').select('shape').where('name', '=', spec.name).executeTakeFirst();
  const first = await read();
  if (first && covers(first.shape, wanted)) return table;
  await withSchemaLock(db, async () => {
    const built = (await read())?.shape;
    if (built && covers(built, wanted)) return;
    const next = merge(built, wanted);
    await db.transaction().execute(async (trx) => {
      await build(trx as unknown as Db, table, built, next, options);
      const shape = JSON.stringify(next);
      await trx
        .insertInto('folio_collections')
        .values({ name: spec.name, table_name: table, shape })
        .onConflict((oc) => oc.column('name').doUpdateSet({ shape }))
        .execute();
    });
  });
  return table;
}

async function build(
  db: Db,
  table: string,
  built: TableShape | undefined,
  next: TableShape,
  options: TableOptions,
) {
  const t = sql.table(table);
  await sql`CREATE TABLE IF NOT EXISTS ${t} (
    workspace_id text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    doc jsonb NOT NULL,
    PRIMARY KEY (workspace_id, id))`.execute(db);
  for (const [field, type] of Object.entries(next.fields)) {
    if (built?.fields[field] === type) continue;
    const column = sql.ref(field);
    const { type: columnType, extract } = COLUMN[type as FieldType];
    if (built?.fields[field]) await sql`ALTER TABLE ${t} DROP COLUMN IF EXISTS ${column}`.execute(db);
    await sql`ALTER TABLE ${t} ADD COLUMN ${column} ${columnType}
      GENERATED ALWAYS AS (${sql.raw(extract)}(doc -> ${sql.lit(field)})) STORED`.execute(db);
    const index = sql.id(identifier(table, field, 'idx'));
    // One index serves both directions: ASC NULLS FIRST forwards, DESC NULLS LAST backwards (query.ts).
    if (type === 'text[]')
      await sql`CREATE INDEX ${index} ON ${t} USING gin (${column}) WITH (fastupdate = off)`.execute(db);
    else await sql`CREATE INDEX ${index} ON ${t} (workspace_id, ${column} NULLS FIRST, id)`.execute(db);
  }
  for (const field of next.unique) {
    if (built?.unique.includes(field)) continue;
    // doc ->> field: a unique value compares as text whatever its JSON type, as the file backend's registry does.
    await sql`CREATE UNIQUE INDEX ${sql.id(uniqueIndexOf(table, field))} ON ${t} ((doc ->> ${sql.lit(field)}))`.execute(
      db,
    );
  }
  for (const field of next.search) {
    if (!options.trigrams || (built?.search.includes(field) && built.fields[field] === 'text')) continue;
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(identifier(table, field, 'trgm'))} ON ${t}
      USING gin (folio_fold(${sql.ref(field)}) gin_trgm_ops) WITH (fastupdate = off)`.execute(db);
  }
}
