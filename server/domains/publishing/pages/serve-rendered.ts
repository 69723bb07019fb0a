/**
 * Answers a page route with rendered bytes: a strong ETag from the bytes (304 on If-None-Match), and
 * `no-cache` so every view revalidates and a new version or a visibility change shows at once. Private
 * items are `private` and vary on the cookie; everything is nosniff, and pages carry their CSP.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Rendered } from '../../../engines/render/render-cache.js';
import { reply } from '../../../http/reply.js';
import type { Visibility } from '../collections.js';

export const etagOf = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export function rendered(
  body: Buffer | string,
  contentType: string,
  extra: Record<string, unknown> = {},
): Rendered {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { body: bytes, contentType, etag: etagOf(bytes), ...extra };
}

export type ServeOptions = { visibility: Visibility; csp?: string; embeddable?: boolean };

export function serveRendered(ctx: Context, output: Rendered, { visibility, csp, embeddable }: ServeOptions) {
  const headers: Record<string, string> = {
    ETag: output.etag,
    'Cache-Control': visibility === 'private' ? 'private, no-cache' : 'public, no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
  if (visibility === 'private') headers.Vary = 'Cookie';
  if (csp) headers['Content-Security-Policy'] = csp;
  if (embeddable) headers['Cross-Origin-Resource-Policy'] = 'cross-origin';
  if (matches(ctx.get('if-none-match'), output.etag)) return reply.empty(304, headers);
  return reply.bytes(output.contentType, output.body, headers);
}

function matches(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
