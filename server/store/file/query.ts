// Queries over rows held in memory: the file backend's answer to where / search / orderBy / cursor. The
// PostgreSQL backend answers the same ListQuery with SQL; the contract tests hold both to one behaviour.
import { DEFAULT_ORDER, decodeCursor, encodeCursor } from '../cursor.js';
import { UndeclaredField } from '../errors.js';
import type { CollectionSpec, Condition, ListQuery, OrderBy, Page, Row, Scalar, Where } from '../types.js';

type Predicate<T> = (row: T) => boolean;

/** Throws `UndeclaredField` for a field the collection does not declare, as a column-based backend must. */
export function checkFields<T extends Row>(spec: CollectionSpec<T>, fields: string[]): void {
  for (const field of fields)
    if (field !== 'id' && field !== 'seq' && !(field in spec.fields))
      throw new UndeclaredField(spec.name, field);
}

export function compileWhere<T extends Row>(spec: CollectionSpec<T>, where: Where<T> = {}): Predicate<T> {
  const entries = Object.entries(where).filter(([, c]) => c !== undefined) as [string, Condition][];
  checkFields(
    spec,
    entries.map(([f]) => f),
  );
  const tests = entries.map(([field, condition]) => {
    const test = compileCondition(condition);
    return (row: T) => test((row as Record<string, unknown>)[field]);
  });
  return (row) => tests.every((t) => t(row));
}

function compileCondition(condition: Condition): (value: unknown) => boolean {
  if (condition === null) return (v) => v === null || v === undefined;
  if (typeof condition !== 'object') return (v) => v === condition;
  if ('ne' in condition) {
    const ne = condition.ne;
    return ne === null ? (v) => v !== null && v !== undefined : (v) => v !== ne;
  }
  if ('in' in condition) {
    const set = new Set(condition.in);
    return (v) => set.has((v ?? null) as Scalar);
  }
  if ('prefix' in condition) {
    const prefix = condition.prefix;
    return (v) => typeof v === 'string' && v.startsWith(prefix);
  }
  if ('hasAll' in condition) {
    const wanted = condition.hasAll;
    return (v) => Array.isArray(v) && wanted.every((w) => v.includes(w));
  }
  if ('hasAny' in condition) {
    const wanted = condition.hasAny;
    return (v) => Array.isArray(v) && wanted.some((w) => v.includes(w));
  }
  const { gt, gte, lt, lte } = condition;
  return (v) =>
    (typeof v === 'string' || typeof v === 'number') &&
    (gt === undefined || v > gt) &&
    (gte === undefined || v >= gte) &&
    (lt === undefined || v < lt) &&
    (lte === undefined || v <= lte);
}

export function compileSearch<T extends Row>(
  spec: CollectionSpec<T>,
  search: ListQuery<T>['search'],
): Predicate<T> {
  if (!search || search.text === '') return () => true;
  checkFields(spec, search.fields);
  const needle = search.text.toLowerCase();
  return (row) =>
    search.fields.some((field) => {
      const value = (row as Record<string, unknown>)[field];
      return typeof value === 'string' && value.toLowerCase().includes(needle);
    });
}

/** Missing and null sort before every value; ties break on id in the last field's direction. */
export function comparator<T extends Row>(orderBy: OrderBy<T>): (a: T, b: T) => number {
  const lastDirection = orderBy[orderBy.length - 1]?.[1] ?? 'asc';
  return (a, b) => {
    for (const [field, direction] of orderBy) {
      const order = compareValues(a[field] as Scalar, b[field] as Scalar);
      if (order !== 0) return direction === 'asc' ? order : -order;
    }
    const order = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return lastDirection === 'asc' ? order : -order;
  };
}

function compareValues(a: Scalar | undefined, b: Scalar | undefined): number {
  const an = a === undefined || a === null;
  const bn = b === undefined || b === null;
  if (an || bn) return an === bn ? 0 : an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rows already sorted by one field (then id): order-index.ts. */
export type OrderedRows<T> = { walk(direction: 'asc' | 'desc', anchor?: T): Iterable<T> };

/** Where an index keeps the rows in order or narrows them (order-index.ts, find-index.ts). */
export type Indexes<T extends Row> = {
  /** The rows sorted by `field`: a page in that order then reads only its rows. */
  ordered(field: keyof T & string): OrderedRows<T>;
  /**
   * What an index says of the rows that can match `query`: the `few` there are (a rare search or tag), or the
   * ids `among` which a common one's are; undefined when no index narrows it.
   */
  candidates(query: ListQuery<T>): { few: Iterable<T> } | { among: { has(id: string): boolean } } | undefined;
};

export function selectPage<T extends Row>(
  spec: CollectionSpec<T>,
  rows: Iterable<T>,
  query: ListQuery<T>,
  indexes?: Indexes<T>,
): Page<T> {
  const orderBy = (query.orderBy ?? DEFAULT_ORDER) as OrderBy<T>;
  checkFields(
    spec,
    orderBy.map(([f]) => f),
  );
  const matches = compileWhere(spec, query.where);
  const searched = compileSearch(spec, query.search);
  const compare = comparator(orderBy);
  let anchor: T | undefined;
  if (query.cursor) {
    const { values, id } = decodeCursor(query.cursor, orderBy);
    anchor = { id, ...Object.fromEntries(orderBy.map(([f], i) => [f, values[i]])) } as T;
  }
  const narrowed = indexes?.candidates(query);
  const among = narrowed && 'among' in narrowed ? narrowed.among : undefined;
  const few = narrowed && 'few' in narrowed ? narrowed.few : undefined;
  const test = (row: T) => (!among || among.has(row.id)) && matches(row) && searched(row);
  const selected =
    !few && indexes && orderBy.length === 1
      ? firstMatches(indexes.ordered(orderBy[0][0]).walk(orderBy[0][1], anchor), test, query.limit + 1)
      : firstInOrder(
          // Rows are held in the order they were inserted, which is mostly oldest first; a newest-first page reads
          // them backwards, so after its first rows almost every other one is rejected by a single comparison.
          few ?? (orderBy[0]?.[1] === 'desc' ? backwards(rows) : rows),
          (row) => test(row) && (!anchor || compare(row, anchor) > 0),
          compare,
          query.limit + 1,
        );
  const page = selected.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor: selected.length > query.limit && last ? encodeCursor(last, orderBy) : null,
  };
}

/** The first `count` rows passing `test` of rows already in order. */
function firstMatches<T>(rows: Iterable<T>, test: (row: T) => boolean, count: number): T[] {
  const found: T[] = [];
  for (const row of rows) {
    if (!test(row)) continue;
    found.push(row);
    if (found.length === count) break;
  }
  return found;
}

function* backwards<T>(rows: Iterable<T>): Iterable<T> {
  const all = Array.isArray(rows) ? (rows as T[]) : Array.from(rows);
  for (let i = all.length - 1; i >= 0; i--) yield all[i];
}

/**
 * The first `count` matching rows in `compare` order. A page (count ≈ 50 of 100,000 rows) keeps a max-heap of the
 * best rows so far, so it costs one pass with a cheap comparison per row, not a sort of every row; large counts
 * (`all`) collect and sort.
 */
function firstInOrder<T>(
  rows: Iterable<T>,
  test: (row: T) => boolean,
  compare: (a: T, b: T) => number,
  count: number,
) {
  const heap: T[] = [];
  if (count > 1000) {
    for (const row of rows) if (test(row)) heap.push(row);
    return heap.sort(compare).slice(0, count);
  }
  for (const row of rows) {
    if (!test(row)) continue;
    if (heap.length < count) {
      heap.push(row);
      siftUp(heap, heap.length - 1, compare);
    } else if (compare(row, heap[0]) < 0) {
      heap[0] = row;
      siftDown(heap, compare);
    }
  }
  return heap.sort(compare);
}

/** Max-heap by `compare`: the worst kept row at the root, the first to go when a better one comes. */
function siftUp<T>(heap: T[], at: number, compare: (a: T, b: T) => number): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (compare(heap[at], heap[parent]) <= 0) return;
    [heap[at], heap[parent]] = [heap[parent], heap[at]];
    at = parent;
  }
}

function siftDown<T>(heap: T[], compare: (a: T, b: T) => number): void {
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let worst = at;
    if (left < heap.length && compare(heap[left], heap[worst]) > 0) worst = left;
    if (right < heap.length && compare(heap[right], heap[worst]) > 0) worst = right;
    if (worst === at) return;
    [heap[at], heap[worst]] = [heap[worst], heap[at]];
    at = worst;
  }
}
