/** The asset JSON: the record plus its public serve URLs. */
import { TRANSFORMABLE_TYPES } from '../../engines/image/render-image.js';
import { JsonText } from '../../http/json-text.js';
import type { Asset, AssetList, AssetRecord } from './schema.js';

/** Kept off the wire: the feed position and the lower-cased search text are the store's. */
const INTERNAL = new Set(['seq', 'searchText']);

export function presentAsset(record: AssetRecord & { seq?: number }, origin: string): Asset {
  // A loop rather than rest-destructuring twice: the same fields in the same order, built in one pass.
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

type Presented = { origin: string; asset: Asset; json: string };

/**
 * Each record's JSON, kept for as long as the record object lives. The file store hands out its rows and replaces
 * a row with a new object on every write (copy on write), so a record seen again is unchanged and its JSON still
 * true; a backend that reads fresh rows (PostgreSQL) simply never hits.
 */
const presented = new WeakMap<AssetRecord, Presented>();

function presentOnce(record: AssetRecord, origin: string): Presented {
  const known = presented.get(record);
  if (known?.origin === origin) return known;
  const asset = Object.freeze(presentAsset(record, origin));
  const fresh = { origin, asset, json: JSON.stringify(asset) };
  presented.set(record, fresh);
  return fresh;
}

/**
 * A list page as a JsonText: its text is joined from the records' kept JSON, so a page of records listed before
 * is neither presented nor serialized again (bench/README.md "Foundation": a page of 50 was mostly that work).
 */
export function presentAssetPage(
  records: AssetRecord[],
  nextCursor: string | null,
  origin: string,
): JsonText<AssetList> {
  const data: Asset[] = [];
  const texts: string[] = [];
  for (const record of records) {
    const { asset, json } = presentOnce(record, origin);
    data.push(asset);
    texts.push(json);
  }
  const text = `{"data":[${texts.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
  return new JsonText({ data, nextCursor }, text);
}
