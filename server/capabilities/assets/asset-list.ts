/** Filtering and cursor paging of asset records, newest first. Pure. */
import { badRequest } from '../../http/errors.js';
import type { AssetRecord, ListAssetsQuery } from './schema.js';

export function listAssetRecords(rows: AssetRecord[], query: ListAssetsQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const search = query.search?.trim().toLowerCase();
  const matches = rows
    .filter((a) => !query.type || a.type === query.type)
    .filter((a) => query.tags.every((t) => a.tags.includes(t)))
    .filter(
      (a) => !search || [a.displayName, a.filename, ...a.tags].some((s) => s.toLowerCase().includes(search)),
    )
    .sort(newestFirst)
    .filter((a) => !after || newestFirst(a, after) > 0);
  const page = matches.slice(0, query.limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: matches.length > query.limit && last ? encodeCursor(last) : null };
}

function newestFirst(
  a: Pick<AssetRecord, 'createdAt' | 'id'>,
  b: Pick<AssetRecord, 'createdAt' | 'id'>,
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function encodeCursor(a: AssetRecord): string {
  return Buffer.from(`${a.createdAt}|${a.id}`).toString('base64url');
}

function decodeCursor(cursor: string): Pick<AssetRecord, 'createdAt' | 'id'> {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt)))
    throw badRequest('cursor is not valid; pass nextCursor from a previous page');
  return { createdAt, id };
}
