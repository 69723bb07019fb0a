// What narrows a list query before any row is read: the rows holding each value of a `text[]` field (tags), and
// the rows whose searched fields contain each trigram of their lower-cased text. A rare search or tag then reads
// its few candidate rows instead of every row (bench/README.md "Scale"). Candidates are a superset: the query
// still tests each one in full, so the index can only make a page faster, never different. Filled once the server
// serves, or at a collection's first narrowing query, in slices that yield (until then queries read rows as before),
// and kept current by every change to memory (collection.ts `apply`).
//
// Rows are numbered, and each key's rows are held as ascending numbers in a typed array (postings.ts): at 100,000
// rows that is millions of entries, which as sets of id strings were ~90 MB of objects for the collector to trace
// and pauses of 25–30 ms while they grew.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CollectionSpec, Condition, ListQuery, Row } from '../types.js';
import { type Found, intersect, Postings, unite } from './postings.js';

/** What the index says of the rows a query can match: a test of any id, and the ids themselves when it has them. */
export type IdLookup = { size: number; has(id: string): boolean; ids?: string[] };

/** Marks a text's two ends, so texts under three characters still have trigrams and a short needle finds them. */
const START = '\u0002';
const END = '\u0003';

export type FindIndex<T extends Row> = {
  replace(previous: T | undefined, next: T | undefined): void;
  /** Indexes every row of `rows` a slice at a time, until `stopped`; queries use the index once it resolves. */
  fill(rows: Map<string, T>, stopped?: () => boolean): Promise<void>;
  /**
   * The rows that can match `query` where an index narrows it, listed when there are at most `limit`, else as a
   * test; undefined where none does, or where even the test would cost more than reading rows (a union past
   * `limit`).
   */
  candidates(query: Pick<ListQuery<T>, 'where' | 'search'>, limit: number): IdLookup | undefined;
};

function trigramsOf(text: string): string[] {
  const padded = `${START}${text}${END}`;
  const grams: string[] = [];
  for (let at = 0; at + 3 <= padded.length; at++) grams.push(padded.slice(at, at + 3));
  return grams;
}

function valuesOf(row: Row, field: string): string[] {
  const value = (row as Record<string, unknown>)[field];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function textOf(row: Row, field: string): string | undefined {
  const value = (row as Record<string, unknown>)[field];
  return typeof value === 'string' ? value.toLowerCase() : undefined;
}

/** The one- and two-character pieces of a trigram: what a needle shorter than a trigram can be. */
const piecesOf = (gram: string) =>
  new Set(
    [gram[0]!, gram[1]!, gram[2]!, gram.slice(0, 2), gram.slice(1)].filter((p) => p !== START && p !== END),
  );

/**
 * One field's keys, each to the rows holding it. With `pieces`, also each key's short pieces to the keys holding
 * them, so a one- or two-character search finds its trigrams without reading every key.
 */
function createKeys(pieces = false) {
  const map = new Map<string, Postings>();
  const keysWith = new Map<string, Set<string>>();
  const file = (key: string, edit: 'add' | 'delete') => {
    for (const piece of piecesOf(key)) {
      const keys = keysWith.get(piece);
      if (edit === 'delete') {
        keys?.delete(key);
        if (keys?.size === 0) keysWith.delete(piece);
      } else if (keys) keys.add(key);
      else keysWith.set(piece, new Set([key]));
    }
  };
  return {
    map,
    keysWith: (piece: string) => keysWith.get(piece) ?? [],
    add(key: string, row: number) {
      const rows = map.get(key);
      if (rows) return rows.add(row);
      map.set(key, Postings.of(row));
      if (pieces) file(key, 'add');
    },
    delete(key: string, row: number) {
      const rows = map.get(key);
      if (!rows) return;
      rows.delete(row);
      if (rows.size > 0) return;
      map.delete(key);
      if (pieces) file(key, 'delete');
    },
  };
}

type Keys = ReturnType<typeof createKeys>;

/** Whether the index can narrow `query`: a search, or a tag condition (`hasAll`/`hasAny` on a `text[]` field). */
export function canNarrow<T extends Row>(
  spec: CollectionSpec<T>,
  query: Pick<ListQuery<T>, 'where' | 'search'>,
) {
  if (query.search?.text) return true;
  return Object.entries(query.where ?? {}).some(
    ([field, c]) =>
      (spec.fields as Record<string, string | undefined>)[field] === 'text[]' &&
      typeof c === 'object' &&
      c !== null &&
      ('hasAll' in c || 'hasAny' in c),
  );
}

/** Whether a collection has fields this index serves: searched text or `text[]`. */
export const hasFindFields = <T extends Row>(spec: CollectionSpec<T>) =>
  Boolean(spec.search?.length) || Object.values(spec.fields).includes('text[]');

/** How long filling holds the event loop before it yields a turn; the clock is read every 50 rows. */
const FILL_SLICE_MS = 8;

/** Row ids to small numbers and back; a removed row's number is given to the next new one. */
function createNumbering() {
  const numberOf = new Map<string, number>();
  const idAt: (string | undefined)[] = [];
  const free: number[] = [];
  return {
    numberOf: (id: string) => numberOf.get(id),
    idAt: (n: number) => idAt[n]!,
    take(id: string) {
      let n = numberOf.get(id);
      if (n !== undefined) return n;
      n = free.pop() ?? idAt.length;
      idAt[n] = id;
      numberOf.set(id, n);
      return n;
    },
    release(id: string) {
      const n = numberOf.get(id);
      if (n === undefined) return;
      numberOf.delete(id);
      idAt[n] = undefined;
      free.push(n);
    },
  };
}

export function createFindIndex<T extends Row>(spec: CollectionSpec<T>): FindIndex<T> {
  let filled = false;
  const numbering = createNumbering();
  const listFields = Object.entries(spec.fields)
    .filter(([, type]) => type === 'text[]')
    .map(([field]) => field);
  const values = new Map<string, Keys>(listFields.map((field) => [field, createKeys()]));
  const grams = new Map<string, Keys>((spec.search ?? []).map((field) => [field, createKeys(true)]));

  /** Every field's keys of `row`: its list values, and the trigrams of its searched text. */
  function keysOf(row: T): Array<[Keys, string[]]> {
    const found: Array<[Keys, string[]]> = [];
    for (const [field, keys] of values) found.push([keys, valuesOf(row, field)]);
    for (const [field, keys] of grams) {
      const text = textOf(row, field);
      found.push([keys, text === undefined ? [] : trigramsOf(text)]);
    }
    return found;
  }

  function add(row: T) {
    const n = numbering.take(row.id);
    for (const [keys, found] of keysOf(row)) for (const key of found) keys.add(key, n);
  }

  function remove(row: T) {
    const n = numbering.numberOf(row.id);
    if (n === undefined) return;
    for (const [keys, found] of keysOf(row)) for (const key of found) keys.delete(key, n);
    numbering.release(row.id);
  }

  /** An edit touches only the keys it changes: a common trigram's rows are a long array to shift. */
  function edit(previous: T, next: T) {
    const n = numbering.take(next.id);
    const before = keysOf(previous);
    for (const [i, [keys, after]] of keysOf(next).entries()) {
      const was = before[i]![1];
      const kept = new Set(after);
      for (const key of was) if (!kept.has(key)) keys.delete(key, n);
      for (const key of after) keys.add(key, n);
    }
  }

  /** Rows whose list field can satisfy `condition`; undefined when the condition is not one the index answers. */
  function byValues(field: string, condition: Condition | undefined, limit: number): Found | undefined {
    const keys = values.get(field);
    if (!keys || condition === null || typeof condition !== 'object') return undefined;
    const rowsOf = (value: string) => keys.map.get(value) ?? Postings.none;
    if ('hasAll' in condition && condition.hasAll.length)
      return intersect(condition.hasAll.map(rowsOf), limit);
    if ('hasAny' in condition) return unite(condition.hasAny.map(rowsOf), limit);
    return undefined;
  }

  /** Rows whose field holds every trigram of `needle`; for a needle under three characters, any gram holding it. */
  function byText(field: string, needle: string, limit: number): Found | undefined {
    const keys = grams.get(field);
    if (!keys) return undefined;
    if (needle.length >= 3) {
      const sets: Found[] = [];
      for (const gram of trigramsOf(needle)) {
        if (gram.includes(START) || gram.includes(END)) continue;
        const rows = keys.map.get(gram);
        if (!rows) return Postings.none;
        sets.push(rows);
      }
      return intersect(sets, limit);
    }
    const holding: Found[] = [];
    let total = 0;
    for (const gram of keys.keysWith(needle)) {
      const rows = keys.map.get(gram)!;
      total += rows.size;
      // A row holds a short needle in at most three of its trigrams, so past 3 × limit the union is common.
      if (total > 3 * limit) return undefined;
      holding.push(rows);
    }
    return unite(holding, limit);
  }

  function bySearch(search: ListQuery<T>['search'], limit: number): Found | undefined {
    if (!search || search.text === '') return undefined;
    const needle = search.text.toLowerCase();
    const perField: Found[] = [];
    for (const field of search.fields) {
      const rows = byText(field, needle, limit);
      if (!rows) return undefined;
      perField.push(rows);
    }
    return unite(perField, limit);
  }

  return {
    replace(previous, next) {
      if (previous && next && previous.id === next.id) return edit(previous, next);
      if (previous) remove(previous);
      if (next) add(next);
    },
    async fill(rows, stopped = () => false) {
      // By id, each read when its slice comes: a row written meanwhile is indexed as it now is (adding is
      // idempotent), and one removed meanwhile is skipped.
      const ids = [...rows.keys()];
      let sliceEnds = performance.now() + FILL_SLICE_MS;
      for (let at = 0; at < ids.length; at++) {
        if (at % 50 === 0 && performance.now() > sliceEnds) {
          await nextTurn();
          if (stopped()) return;
          sliceEnds = performance.now() + FILL_SLICE_MS;
        }
        const row = rows.get(ids[at]!);
        if (row) add(row);
      }
      filled = true;
    },
    candidates(query, limit) {
      if (!filled) return undefined;
      const narrowed: Found[] = [];
      for (const [field, condition] of Object.entries(query.where ?? {})) {
        const rows = byValues(field, condition as Condition | undefined, limit);
        if (rows) narrowed.push(rows);
      }
      const searched = bySearch(query.search, limit);
      if (searched) narrowed.push(searched);
      const found = narrowed.length ? intersect(narrowed, limit) : undefined;
      if (!found) return undefined;
      const list = found.size <= limit ? found.list?.() : undefined;
      return {
        size: found.size,
        has(id) {
          const n = numbering.numberOf(id);
          return n !== undefined && found.has(n);
        },
        ...(list && { ids: Array.from(list, numbering.idAt) }),
      };
    },
  };
}
