/** Filtering and cursor paging of asset records, newest first. Pure. */
import { paginate } from '../../http/paging.js';
import type { AssetRecord, ListAssetsQuery } from './schema.js';

export function listAssetRecords(rows: AssetRecord[], query: ListAssetsQuery) {
  const search = query.search?.trim().toLowerCase();
  const matches = rows
    .filter((a) => !query.type || a.type === query.type)
    .filter((a) => query.tags.every((t) => a.tags.includes(t)))
    .filter(
      (a) => !search || [a.displayName, a.filename, ...a.tags].some((s) => s.toLowerCase().includes(search)),
    );
  return paginate(matches, query);
}
