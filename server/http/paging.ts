// Lists: newest first, `limit` 1–200 (default 50), an opaque `cursor` from the previous page's `nextCursor`
// (DESIGN §3). Shared by every capability's list route.
import { z } from 'zod';
import { badRequest } from './errors.js';

export const PageQuery = {
  limit: z.coerce
    .number({ message: 'limit must be a number between 1 and 200' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(50),
  cursor: z.string().max(200).optional(),
};

type Ordered = { createdAt: string; id: string };

/** One page of `rows` (already filtered), newest first, and the cursor for the next one. */
export function paginate<T extends Ordered>(
  rows: T[],
  { limit, cursor }: { limit: number; cursor?: string },
) {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const matches = rows.sort(newestFirst).filter((row) => !after || newestFirst(row, after) > 0);
  const page = matches.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: matches.length > limit && last ? encodeCursor(last) : null };
}

function newestFirst(a: Ordered, b: Ordered): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const encodeCursor = (row: Ordered) => Buffer.from(`${row.createdAt}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): Ordered {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)))
    throw badRequest('cursor is not valid; pass nextCursor from a previous page');
  return { createdAt, id };
}
