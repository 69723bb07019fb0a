/**
 * Public byte routes (docs/security.md#serving-uploaded-bytes): /f (always a download), /audio (inline, seekable), /img (transform cascade).
 * They write to the raw Node response through send-file, keeping Koa out of the hot path, and return reply.handled().
 */
import { isAbsolute, relative, sep } from 'node:path';
import contentDisposition from 'content-disposition';
import type { Context } from 'koa';
import type { Config } from '../../config.js';
import { defineRawRoute } from '../../deps.js';
import { resolveImageVariant } from '../../engines/image/image-variant.js';
import { notFound } from '../../http/errors.js';
import { reply } from '../../http/reply.js';
import { type ByteSource, sendFile } from '../../http/send-file.js';
import { KeyParams } from './schema.js';
import type { FoundAsset } from './service.js';

/** Active content (SVG, HTML) opened from /f still cannot run: opaque origin, nothing loads. */
const SANDBOX_CSP = "default-src 'none'; sandbox";
const FILE_CACHE = 'public, max-age=86400';

export const serveFile = defineRawRoute({
  method: 'GET',
  path: '/f/:key',
  auth: 'public',
  params: KeyParams,
  hidden: true,
  summary: 'Any asset as a forced download',
  handler: async ({ params, ctx }, { assets, config }) => {
    const found = await assets.byKey(params.key);
    if (!found) throw notFound('File');
    const { filename } = found.record;
    return sendAsset(ctx, found, contentDisposition(filename, { fallback: asciiFallback(filename) }), config);
  },
});

export const serveAudio = defineRawRoute({
  method: 'GET',
  path: '/audio/:key',
  auth: 'public',
  params: KeyParams,
  hidden: true,
  summary: 'Audio or video, inline, with Range so players can seek',
  handler: async ({ params, ctx }, { assets, config }) => {
    const found = await assets.byKey(params.key);
    if (!found || (found.record.type !== 'audio' && found.record.type !== 'video')) throw notFound('Audio');
    return sendAsset(ctx, found, 'inline', config);
  },
});

export const serveImage = defineRawRoute({
  method: 'GET',
  path: '/img/{*chain}',
  auth: 'public',
  hidden: true,
  summary: 'Raster image through the transform cascade: /img/<preset>/<op>/<op>/:key',
  handler: async ({ ctx }, { assets, config }) => {
    const segments = String(ctx.params.chain ?? '')
      .split('/')
      .filter(Boolean);
    const variant = await resolveImageVariant(segments, ctx.get('accept'), assets.byKey, assets.imageCache);
    return send(ctx, {
      path: variant.path,
      accel: accelOf(config, variant.path),
      source: variant.path || !variant.original ? undefined : sourceOf(variant.original),
      contentType: variant.contentType,
      etag: variant.etag,
      headers: variant.headers,
    });
  },
});

export const assetServeRoutes = { serveFile, serveAudio, serveImage };

/** The stored bytes of an asset, sandboxed whatever they are; `disposition` says download or inline. */
function sendAsset(ctx: Context, found: FoundAsset, disposition: string, config: Config) {
  const { record, path } = found;
  return send(ctx, {
    path,
    accel: accelOf(config, path),
    source: path ? undefined : sourceOf(found),
    contentType: record.contentType,
    etag: `"${record.sha256.slice(0, 32)}"`,
    headers: {
      'Content-Disposition': disposition,
      'Content-Security-Policy': SANDBOX_CSP,
      'Cache-Control': FILE_CACHE,
    },
  });
}

/** nginx's internal URI for a file under the data directory, when the operator set FOLIO_ACCEL_REDIRECT. */
function accelOf(config: Config, path: string | undefined): string | undefined {
  if (!config.accelRedirect || !path) return undefined;
  const inside = relative(config.dataDir, path);
  if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return config.accelRedirect + inside.split(sep).map(encodeURIComponent).join('/');
}

/** An asset's bytes where the store keeps them; a record's bytes never change, so it dates them. */
const sourceOf = (found: FoundAsset): ByteSource => ({
  size: found.record.size,
  modifiedAt: new Date(found.record.createdAt),
  read: (range) => found.read(range),
});

async function send(ctx: Context, options: Parameters<typeof sendFile>[2]) {
  try {
    await sendFile(ctx.req, ctx.res, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('File'); // deleted between lookup and stat
    throw error;
  }
  return reply.handled();
}

function asciiFallback(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
}
