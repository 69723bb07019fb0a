/** Filtering and cursor paging of transcript records, newest first. Pure. */
import { badRequest } from '../../http/errors.js';
import type { ListTranscriptsQuery, TranscriptRecord } from './schema.js';

type Order = Pick<TranscriptRecord, 'createdAt' | 'id'>;

export function listTranscriptRecords(rows: TranscriptRecord[], query: ListTranscriptsQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const matches = rows
    .filter((t) => !query.status || t.status === query.status)
    .sort(newestFirst)
    .filter((t) => !after || newestFirst(t, after) > 0);
  const page = matches.slice(0, query.limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: matches.length > query.limit && last ? encodeCursor(last) : null };
}

function newestFirst(a: Order, b: Order): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const encodeCursor = (t: Order) => Buffer.from(`${t.createdAt}|${t.id}`).toString('base64url');

function decodeCursor(cursor: string): Order {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)))
    throw badRequest('cursor is not valid; pass nextCursor from a previous page');
  return { createdAt, id };
}
