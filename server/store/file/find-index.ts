// What narrows a list query before any row is read: the ids holding each value of a `text[]` field (tags), and
// the ids whose searched fields contain each trigram of their lower-cased text. A rare search or tag then reads
// its few candidate rows instead of every row (bench/README.md "Scale"). Candidates are a superset: the query
// still tests each one in full, so the index can only make a page faster, never different. Filled once the server
// serves, or at a collection's first narrowing query, in slices that yield (until then queries read rows as before),
// and kept current by every change to memory (collection.ts `apply`).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CollectionSpec, Condition, ListQuery, Row } from '../types.js';

type Ids = Set<string>;
/** A set of ids, or a test standing for one that was not worth making (`size`: at most that many). */
export type IdLookup = Pick<Ids, 'size' | 'has'>;

/** Marks a text's two ends, so texts under three characters still have trigrams and a short needle finds them. */
const START = '\u0002';
const END = '\u0003';

export type FindIndex<T extends Row> = {
  replace(previous: T | undefined, next: T | undefined): void;
  /** Indexes every row of `rows` a slice at a time, until `stopped`; queries use the index once it resolves. */
  fill(rows: Map<string, T>, stopped?: () => boolean): Promise<void>;
  /**
   * The ids that can match `query` where an index narrows it, as a set when there are at most `limit`, else as a
   * test; undefined where none does, or where even the test would cost more than reading rows (a union past
   * `limit`).
   */
  candidates(query: Pick<ListQuery<T>, 'where' | 'search'>, limit: number): IdLookup | undefined;
};

function* trigramsOf(text: string): Iterable<string> {
  const padded = `${START}${text}${END}`;
  for (let at = 0; at + 3 <= padded.length; at++) yield padded.slice(at, at + 3);
}

function valuesOf(row: Row | undefined, field: string): string[] {
  const value = (row as Record<string, unknown> | undefined)?.[field];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function textOf(row: Row | undefined, field: string): string | undefined {
  const value = (row as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value.toLowerCase() : undefined;
}

/** The one- and two-character pieces of a trigram: what a needle shorter than a trigram can be. */
const piecesOf = (gram: string) =>
  new Set(
    [gram[0]!, gram[1]!, gram[2]!, gram.slice(0, 2), gram.slice(1)].filter((p) => p !== START && p !== END),
  );

/**
 * One map from key to the ids that hold it. With `pieces`, also each key's short pieces to the keys holding them,
 * so a one- or two-character search finds its trigrams without reading every key.
 */
function createPostings(pieces = false) {
  const map = new Map<string, Ids>();
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
    add(key: string, id: string) {
      const ids = map.get(key);
      if (ids) return void ids.add(id);
      map.set(key, new Set([id]));
      if (pieces) file(key, 'add');
    },
    delete(key: string, id: string) {
      const ids = map.get(key);
      if (!ids) return;
      ids.delete(id);
      if (ids.size > 0) return;
      map.delete(key);
      if (pieces) file(key, 'delete');
    },
  };
}

type Postings = ReturnType<typeof createPostings>;

/**
 * Ids in every set. When the smallest holds at most `limit`, read from it, so the cost is its size; else a test
 * of each id against every set, which a read of rows in order asks only until its page is full. A lone set is
 * answered as it is, never copied: callers only read it.
 */
function intersect(sets: IdLookup[], limit: number): IdLookup | undefined {
  const [smallest, ...others] = [...sets].sort((a, b) => a.size - b.size);
  if (!smallest) return undefined;
  if (others.length === 0) return smallest;
  if (smallest.size > limit || !(smallest instanceof Set))
    return { size: smallest.size, has: (id) => sets.every((set) => set.has(id)) };
  const found = new Set<string>();
  for (const id of smallest as Ids) if (others.every((set) => set.has(id))) found.add(id);
  return found;
}

/** Ids in any set, or undefined as soon as there would be more than `limit`; a lone set as it is. */
function unite(sets: IdLookup[], limit: number): IdLookup | undefined {
  if (sets.length === 1) return sets[0];
  const found = new Set<string>();
  for (const set of sets) {
    if (!(set instanceof Set)) return undefined;
    if (set.size > limit) return undefined;
    for (const id of set) found.add(id);
    if (found.size > limit) return undefined;
  }
  return found;
}

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

export function createFindIndex<T extends Row>(spec: CollectionSpec<T>): FindIndex<T> {
  let filled = false;
  const listFields = Object.entries(spec.fields)
    .filter(([, type]) => type === 'text[]')
    .map(([field]) => field);
  const values = new Map<string, Postings>(listFields.map((field) => [field, createPostings()]));
  const grams = new Map<string, Postings>((spec.search ?? []).map((field) => [field, createPostings(true)]));

  function change(row: T | undefined, edit: 'add' | 'delete') {
    if (!row) return;
    for (const [field, postings] of values)
      for (const value of valuesOf(row, field)) postings[edit](value, row.id);
    for (const [field, postings] of grams) {
      const text = textOf(row, field);
      if (text !== undefined) for (const gram of trigramsOf(text)) postings[edit](gram, row.id);
    }
  }

  /** Ids whose list field can satisfy `condition`; undefined when the condition is not one the index answers. */
  function byValues(field: string, condition: Condition | undefined, limit: number): IdLookup | undefined {
    const postings = values.get(field);
    if (!postings || condition === null || typeof condition !== 'object') return undefined;
    const setOf = (value: string) => postings.map.get(value) ?? new Set<string>();
    if ('hasAll' in condition && condition.hasAll.length)
      return intersect(condition.hasAll.map(setOf), limit);
    if ('hasAny' in condition) return unite(condition.hasAny.map(setOf), limit);
    return undefined;
  }

  /** Ids whose field holds every trigram of `needle`; for a needle under three characters, any gram holding it. */
  function byText(field: string, needle: string, limit: number): IdLookup | undefined {
    const postings = grams.get(field);
    if (!postings) return undefined;
    if (needle.length >= 3) {
      const sets: Ids[] = [];
      for (const gram of trigramsOf(needle)) {
        if (gram.includes(START) || gram.includes(END)) continue;
        const ids = postings.map.get(gram);
        if (!ids) return new Set();
        sets.push(ids);
      }
      return intersect(sets, limit);
    }
    const holding: Ids[] = [];
    let total = 0;
    for (const gram of postings.keysWith(needle)) {
      const ids = postings.map.get(gram)!;
      total += ids.size;
      // A row holds a short needle in at most three of its trigrams, so past 3 × limit the union is common.
      if (total > 3 * limit) return undefined;
      holding.push(ids);
    }
    return unite(holding, limit);
  }

  function bySearch(search: ListQuery<T>['search'], limit: number): IdLookup | undefined {
    if (!search || search.text === '') return undefined;
    const needle = search.text.toLowerCase();
    const perField: IdLookup[] = [];
    for (const field of search.fields) {
      const ids = byText(field, needle, limit);
      if (!ids) return undefined;
      perField.push(ids);
    }
    return unite(perField, limit);
  }

  return {
    replace(previous, next) {
      change(previous, 'delete');
      change(next, 'add');
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
        change(rows.get(ids[at]), 'add');
      }
      filled = true;
    },
    candidates(query, limit) {
      if (!filled) return undefined;
      const narrowed: IdLookup[] = [];
      for (const [field, condition] of Object.entries(query.where ?? {})) {
        const ids = byValues(field, condition as Condition | undefined, limit);
        if (ids) narrowed.push(ids);
      }
      const searched = bySearch(query.search, limit);
      if (searched) narrowed.push(searched);
      if (narrowed.length === 0) return undefined;
      return intersect(narrowed, limit);
    },
  };
}
