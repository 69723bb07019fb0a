// The rows of one collection kept sorted by one field (then id), so a page in that order reads its own rows
// instead of every row: a newest-first page of 50 out of 10,000 assets looks at about 51 (bench/README.md
// "Foundation"). Built on the first page that asks for the order, then kept current by every change to memory.
import type { Row } from '../types.js';
import { comparator } from './query.js';

export type OrderIndex<T extends Row> = {
  replace(previous: T | undefined, next: T | undefined): void;
  /** Rows after `anchor` in `direction` (all rows without one), in that order. */
  walk(direction: 'asc' | 'desc', anchor?: T): Iterable<T>;
};

export function createOrderIndex<T extends Row>(field: keyof T & string, rows: Iterable<T>): OrderIndex<T> {
  const compare = comparator<T>([[field, 'asc']]);
  const sorted = Array.from(rows).sort(compare);

  /** The first position whose row sorts after `row` (`strictly`) or not before it. */
  function positionOf(row: T, strictly: boolean): number {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compare(sorted[middle], row);
      if (order < 0 || (strictly && order === 0)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function remove(row: T): void {
    const at = positionOf(row, false);
    // (field, id) is unique, so the row sits exactly here; rows are replaced whole, never changed in place
    if (sorted[at]?.id === row.id) sorted.splice(at, 1);
  }

  function add(row: T): void {
    const at = positionOf(row, true);
    if (at === sorted.length) sorted.push(row);
    else sorted.splice(at, 0, row);
  }

  function* walk(direction: 'asc' | 'desc', anchor?: T): Iterable<T> {
    if (direction === 'asc')
      for (let at = anchor ? positionOf(anchor, true) : 0; at < sorted.length; at++) yield sorted[at];
    else
      for (let at = (anchor ? positionOf(anchor, false) : sorted.length) - 1; at >= 0; at--) yield sorted[at];
  }

  return {
    replace(previous, next) {
      if (previous) remove(previous);
      if (next) add(next);
    },
    walk,
  };
}
