/** The asset JSON: the record plus its public serve URLs. */
import { TRANSFORMABLE_TYPES } from '../../engines/image/render-image.js';
import type { Asset, AssetRecord } from './schema.js';

export function presentAsset(
  { seq: _feedPosition, ...record }: AssetRecord & { seq?: number },
  origin: string,
): Asset {
  const image = record.type === 'image' && TRANSFORMABLE_TYPES.has(record.contentType);
  const playable = record.type === 'audio' || record.type === 'video';
  const { searchText: _internal, ...shown } = record;
  return {
    ...shown,
    urls: {
      file: `${origin}/f/${record.key}`,
      ...(image ? { img: `${origin}/img/${record.key}`, thumb: `${origin}/img/thumb/${record.key}` } : {}),
      ...(playable ? { audio: `${origin}/audio/${record.key}` } : {}),
    },
  };
}
