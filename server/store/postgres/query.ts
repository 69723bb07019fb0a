// ListQuery → SQL, with the file backend's semantics (file/query.ts): a bare null matches a missing field, `ne`
// keeps rows without the field, a value of another type never matches, nulls sort first ascending (last
// descending), ties break on id in the last direction, search is a case-insensitive substring with no wildcards.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { DEFAULT_ORDER, decodeCursor } from '../cursor.js';
import { InvalidCursor, UndeclaredField } from '../errors.js';
import type {
  CollectionSpec,
  Condition,
  FieldType,
  ListQuery,
  OrderBy,
  Row,
  Scalar,
  Where,
} from '../types.js';

type Fragment = RawBuilder<SqlBool>;
type Column = { ref: RawBuilder<unknown>; type: FieldType };

const TRUE: Fragment = sql<SqlBool>`TRUE`;
const FALSE: Fragment = sql<SqlBool>`FALSE`;
const ARRAY_TYPE = { text: sql`text[]`, number: sql`double precision[]`, boolean: sql`boolean[]` };

export function columnOf<T extends Row>(spec: CollectionSpec<T>, field: string): Column {
  if (field === 'id') return { ref: sql.ref('id'), type: 'text' };
  if (field === 'seq') return { ref: sql`folio_number(doc -> 'seq')`, type: 'number' };
  const type = (spec.fields as Record<string, FieldType | undefined>)[field];
  if (!type) throw new UndeclaredField(spec.name, field);
  return { ref: sql.ref(field), type };
}

/** Whether a JavaScript value can equal a value of the column (strict equality never crosses types). */
function fits(type: FieldType, value: unknown): boolean {
  if (type === 'text') return typeof value === 'string';
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'boolean') return typeof value === 'boolean';
  return false;
}

const and = (parts: Fragment[]): Fragment =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
const or = (parts: Fragment[]): Fragment =>
  parts.length === 0 ? FALSE : parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;

/** `%`, `_` and `\` match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function condition({ ref, type }: Column, c: Condition): Fragment {
  if (c === null) return sql<SqlBool>`${ref} IS NULL`;
  if (typeof c !== 'object') return fits(type, c) ? sql<SqlBool>`${ref} = ${c}` : FALSE;
  if ('ne' in c) {
    if (c.ne === null) return sql<SqlBool>`${ref} IS NOT NULL`;
    return fits(type, c.ne) ? sql<SqlBool>`${ref} IS DISTINCT FROM ${c.ne}` : TRUE;
  }
  if ('in' in c) {
    const values = c.in.filter((v) => fits(type, v));
    const parts: Fragment[] = [];
    if (values.length && type !== 'text[]')
      parts.push(sql<SqlBool>`${ref} = ANY(${values}::${ARRAY_TYPE[type]})`);
    if (c.in.includes(null)) parts.push(sql<SqlBool>`${ref} IS NULL`);
    return or(parts);
  }
  if ('prefix' in c) return type === 'text' ? sql<SqlBool>`${ref} LIKE ${`${escapeLike(c.prefix)}%`}` : FALSE;
  if ('hasAll' in c) return type === 'text[]' ? sql<SqlBool>`${ref} @> ${c.hasAll}::text[]` : FALSE;
  if ('hasAny' in c) return type === 'text[]' ? sql<SqlBool>`${ref} && ${c.hasAny}::text[]` : FALSE;
  const bounds = [
    ['>', c.gt],
    ['>=', c.gte],
    ['<', c.lt],
    ['<=', c.lte],
  ] as const;
  const parts: Fragment[] = [sql<SqlBool>`${ref} IS NOT NULL`];
  for (const [op, bound] of bounds) {
    if (bound === undefined) continue;
    if (!fits(type, bound)) return FALSE;
    parts.push(sql<SqlBool>`${ref} ${sql.raw(op)} ${bound}`);
  }
  return and(parts);
}

export function whereSql<T extends Row>(spec: CollectionSpec<T>, where: Where<T> = {}): Fragment[] {
  return (Object.entries(where) as [string, Condition | undefined][])
    .filter((entry): entry is [string, Condition] => entry[1] !== undefined)
    .map(([field, c]) => condition(columnOf(spec, field), c));
}

export function searchSql<T extends Row>(
  spec: CollectionSpec<T>,
  search: ListQuery<T>['search'],
): Fragment[] {
  if (!search || search.text === '') return [];
  const columns = search.fields.map((field) => columnOf(spec, field));
  const pattern = `%${escapeLike(search.text)}%`;
  return [or(columns.map(({ ref }) => sql<SqlBool>`folio_fold(${ref}) LIKE folio_fold(${pattern})`))];
}

export function orderSql<T extends Row>(spec: CollectionSpec<T>, orderBy: OrderBy<T>): RawBuilder<unknown> {
  const last = orderBy[orderBy.length - 1]?.[1] ?? 'asc';
  const terms = orderBy.map(([field, direction]) => {
    const { ref } = columnOf(spec, field);
    return direction === 'asc' ? sql`${ref} ASC NULLS FIRST` : sql`${ref} DESC NULLS LAST`;
  });
  return sql.join([...terms, last === 'asc' ? sql`id ASC` : sql`id DESC`]);
}

/** Rows after the cursor's row in `orderBy` order. */
export function afterCursorSql<T extends Row>(
  spec: CollectionSpec<T>,
  orderBy: OrderBy<T>,
  cursor: string,
): Fragment {
  const { values, id } = decodeCursor(cursor, orderBy);
  const columns = orderBy.map(([field, direction], i) => {
    const column = columnOf(spec, field);
    const value = values[i] as Scalar;
    if (value !== null && !fits(column.type, value)) throw new InvalidCursor();
    return { ...column, direction, value };
  });
  const last = orderBy[orderBy.length - 1]?.[1] ?? 'asc';
  const equal = columns.map(({ ref, value }) =>
    value === null ? sql<SqlBool>`${ref} IS NULL` : sql<SqlBool>`${ref} = ${value}`,
  );
  const after = columns.map(({ ref, direction, value }): Fragment => {
    if (direction === 'asc')
      return value === null ? sql<SqlBool>`${ref} IS NOT NULL` : sql<SqlBool>`${ref} > ${value}`;
    return value === null ? FALSE : sql<SqlBool>`(${ref} < ${value} OR ${ref} IS NULL)`;
  });
  const idAfter = last === 'asc' ? sql<SqlBool>`id > ${id}` : sql<SqlBool>`id < ${id}`;
  // The usual single-field order with a value: a row comparison the (workspace, field, id) index can seek to.
  const [only] = columns;
  if (columns.length === 1 && only && only.value !== null && only.direction === last) {
    return last === 'asc'
      ? sql<SqlBool>`(${only.ref}, id) > (${only.value}, ${id})`
      : sql<SqlBool>`((${only.ref}, id) < (${only.value}, ${id}) OR ${only.ref} IS NULL)`;
  }
  return or([...columns.map((_, i) => and([...equal.slice(0, i), after[i]!])), and([...equal, idAfter])]);
}

export const orderOf = <T extends Row>(query: { orderBy?: OrderBy<T> }): OrderBy<T> =>
  (query.orderBy ?? DEFAULT_ORDER) as OrderBy<T>;
