/**
 * Resolves /img/<chain...>/<key> to a file on disk: the original when no work is needed, else a cached derivative
 * rendered on first request. Explains the effective chain in X-Folio-Transform, which image CDNs do not.
 */
import { notFound } from '../../http/errors.js';
import type { ImageCache } from './image-cache.js';
import { CONTENT_TYPES, defaultFormatFor, renderImage, TRANSFORMABLE_TYPES } from './render-image.js';
import { describeOps, parseTransformChain, resolveFormat } from './transform-chain.js';

/** What the engine needs of a stored image; the caller's own type (an asset) comes back as `original`. */
export interface ImageSource {
  record: { key: string; type: string; contentType: string; sha256: string };
  /** The file itself, on a local file system. */
  path: string | undefined;
  /** A local copy, where the bytes are elsewhere (a bucket); released when rendered. */
  localFile(): Promise<{ path: string; release(): Promise<void> } | undefined>;
}

export interface ImageVariant<S extends ImageSource> {
  /** A derivative in the local cache, or the original's own file on a local file system. */
  path?: string;
  /** The original, when it is served untouched from where the store keeps it (a bucket). */
  original?: S;
  contentType: string;
  etag: string;
  headers: Record<string, string>;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function resolveImageVariant<S extends ImageSource>(
  segments: string[],
  accept: string,
  byKey: (key: string) => Promise<S | undefined>,
  cache: ImageCache,
): Promise<ImageVariant<S>> {
  const key = segments[segments.length - 1] ?? '';
  const found = await byKey(key);
  // SVG and non-images never come out of /img: SVG is active content, which only /f serves, as a download.
  if (found?.record.type !== 'image' || !TRANSFORMABLE_TYPES.has(found.record.contentType))
    throw notFound('Image');
  const { record } = found;
  const chain = parseTransformChain(segments.slice(0, -1));
  const fallback = defaultFormatFor(record.contentType);
  const format = resolveFormat(chain.ops, accept, fallback);
  const effective = { ...chain.ops, format };
  const explain = [
    `steps=${chain.steps.join(' > ') || 'none'}`,
    `effective=${describeOps(effective)}`,
    chain.ops.format === 'auto' ? `format=${format} (auto from Accept)` : `format=${format}`,
  ].join('; ');
  const headers: Record<string, string> = { 'Cache-Control': IMMUTABLE, 'X-Folio-Transform': explain };
  if (chain.ops.format === 'auto') headers.Vary = 'Accept';
  const untouched =
    !chain.ops.width &&
    !chain.ops.height &&
    !chain.ops.quality &&
    CONTENT_TYPES[format] === record.contentType;
  if (untouched) {
    const etag = `"${record.sha256.slice(0, 32)}"`;
    return { path: found.path, original: found, contentType: record.contentType, etag, headers };
  }
  const variant = `${describeOps(effective).replace(/,/g, '_')}.${format}`;
  const cached = await cache.get(record.key, variant, async (tmp) => {
    const local = found.path ? { path: found.path, release: async () => {} } : await found.localFile();
    if (!local) throw notFound('Image');
    try {
      await renderImage(local.path, tmp, chain.ops, format);
    } finally {
      await local.release();
    }
  });
  return {
    path: cached,
    contentType: CONTENT_TYPES[format],
    etag: `"${record.sha256.slice(0, 24)}-${variant}"`,
    headers,
  };
}
