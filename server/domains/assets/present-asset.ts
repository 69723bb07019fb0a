/** The asset JSON: the record plus its public serve URLs. */
import { TRANSFORMABLE_TYPES } from '../../engines/image/render-image.js';
import type { Asset, AssetRecord } from './schema.js';

/** Kept off the wire: the feed position and the lower-cased search text are the store's. */
const INTERNAL = new Set(['seq', 'searchText']);

export function presentAsset(record: AssetRecord & { seq?: number }, origin: string): Asset {
  // A loop rather than rest-destructuring twice: the same fields in the same order, built in one pass (a list
  // page presents 50 of these per request; bench/README.md "Foundation").
  const shown: Record<string, unknown> = {};
  for (const field in record) if (!INTERNAL.has(field)) shown[field] = record[field as keyof AssetRecord];
  const image = record.type === 'image' && TRANSFORMABLE_TYPES.has(record.contentType);
  const playable = record.type === 'audio' || record.type === 'video';
  shown.urls = {
    file: `${origin}/f/${record.key}`,
    ...(image ? { img: `${origin}/img/${record.key}`, thumb: `${origin}/img/thumb/${record.key}` } : {}),
    ...(playable ? { audio: `${origin}/audio/${record.key}` } : {}),
  };
  return shown as Asset;
}
