// Sets of row numbers for the find index (find-index.ts). A key's rows are ascending numbers in a typed array, so
// an entry is 4 bytes outside the collected heap, membership is a binary search and adding a new row (the
// highest number so far, as a fill adds them) is an append.

/** Rows an index answers with: how many, a test, and, where it has them, the rows themselves in ascending order. */
export type Found = { readonly size: number; has(row: number): boolean; list?(): ArrayLike<number> };

/** The position of the first entry of `rows[0, size)` not below `row`. */
function lowerBound(rows: ArrayLike<number>, size: number, row: number): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows[middle]! < row) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A found set of rows already in ascending order. */
function ascending(rows: ArrayLike<number>): Found {
  return {
    size: rows.length,
    has: (row) => {
      const at = lowerBound(rows, rows.length, row);
      return at < rows.length && rows[at] === row;
    },
    list: () => rows,
  };
}

export class Postings implements Found {
  static readonly none: Found = ascending([]);

  static of(row: number): Postings {
    const postings = new Postings();
    postings.add(row);
    return postings;
  }

  size = 0;
  private rows = new Uint32Array(2);

  has(row: number): boolean {
    const at = lowerBound(this.rows, this.size, row);
    return at < this.size && this.rows[at] === row;
  }

  list(): Uint32Array {
    return this.rows.subarray(0, this.size);
  }

  add(row: number): void {
    if (this.size > 0 && this.rows[this.size - 1]! >= row) {
      const at = lowerBound(this.rows, this.size, row);
      if (this.rows[at] === row) return;
      this.makeRoom();
      this.rows.copyWithin(at + 1, at, this.size);
      this.rows[at] = row;
    } else {
      this.makeRoom();
      this.rows[this.size] = row;
    }
    this.size++;
  }

  delete(row: number): void {
    const at = lowerBound(this.rows, this.size, row);
    if (at === this.size || this.rows[at] !== row) return;
    this.rows.copyWithin(at, at + 1, this.size);
    this.size--;
    if (this.size >= 8 && this.size * 4 <= this.rows.length) this.rows = this.rows.slice(0, this.size * 2);
  }

  private makeRoom(): void {
    if (this.size < this.rows.length) return;
    const grown = new Uint32Array(this.rows.length * 2);
    grown.set(this.rows);
    this.rows = grown;
  }
}

/** The sets' common rows: listed when the smallest is listed and holds at most `limit`, else as a test. */
export function intersect(sets: Found[], limit: number): Found | undefined {
  const [smallest, ...others] = [...sets].sort((a, b) => a.size - b.size);
  if (!smallest) return undefined;
  if (others.length === 0) return smallest;
  const rows = smallest.size <= limit ? smallest.list?.() : undefined;
  if (!rows) return { size: smallest.size, has: (row) => sets.every((set) => set.has(row)) };
  const common: number[] = [];
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at]!;
    if (others.every((set) => set.has(row))) common.push(row);
  }
  return ascending(common);
}

/** The rows of any set, or undefined as soon as there would be more than `limit` or a set is not listed. */
export function unite(sets: Found[], limit: number): Found | undefined {
  if (sets.length === 1) return sets[0];
  const any = new Set<number>();
  for (const set of sets) {
    const rows = set.size <= limit ? set.list?.() : undefined;
    if (!rows) return undefined;
    for (let at = 0; at < rows.length; at++) any.add(rows[at]!);
    if (any.size > limit) return undefined;
  }
  return ascending([...any].sort((a, b) => a - b));
}
