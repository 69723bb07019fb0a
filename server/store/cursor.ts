// List cursors, shared by every backend: the last row's sort values and id, so the next page starts after it.
import { InvalidCursor } from './errors.js';
import type { OrderBy, Row, Scalar } from './types.js';

export const DEFAULT_ORDER = [['createdAt', 'desc']] as const;

export function encodeCursor<T extends Row>(row: T, orderBy: OrderBy<T>): string {
  const values = orderBy.map(([field]) => (row[field] ?? null) as Scalar);
  return Buffer.from(JSON.stringify([...values, row.id])).toString('base64url');
}

/** The sort values and id a cursor carries; `InvalidCursor` when it does not fit `orderBy`. */
export function decodeCursor<T extends Row>(
  cursor: string,
  orderBy: OrderBy<T>,
): { values: Scalar[]; id: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== orderBy.length + 1) throw new InvalidCursor();
  const id = decoded[decoded.length - 1];
  const values = decoded.slice(0, -1);
  const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (typeof id !== 'string' || !values.every(scalar)) throw new InvalidCursor();
  return { values: values as Scalar[], id };
}
