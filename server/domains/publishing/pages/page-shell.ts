/**
 * The HTML shell every published page shares: Open Graph and Twitter tags with a PNG preview, and the
 * page CSP (docs/security.md, "Published pages"): nothing loads but this server's own images, media and named scripts; inline styles
 * and scripts run only by hash; `sandbox` without allow-same-origin puts the page in an opaque origin, so
 * nothing on it can use the dashboard's cookie or call the API as its owner.
 */
import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';

export type PageMeta = {
  title: string;
  description?: string;
  /** Absolute URL of this page (og:url). */
  url: string;
  image?: { url: string; width: number; height: number; alt: string };
  /** Unlisted and private pages ask not to be indexed. */
  indexable: boolean;
};

export type PageParts = {
  origin: string;
  meta: PageMeta;
  body: string;
  /** Inline stylesheets, allowed by their hashes. */
  styles: string[];
  /** Texts of <style> elements inside the body (in inline SVG), allowed by their hashes too. */
  bodyStyles?: string[];
  /** Inline scripts, allowed by their hashes; none means scripts are off for the page. */
  scripts?: string[];
  /** Scripts loaded from this server, allowed by their exact URL. */
  scriptUrls?: string[];
  /** JSON the page's scripts read: written as inert data blocks. */
  data?: Record<string, unknown>;
};

export type Page = { html: string; csp: string };

export const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export function pageCsp({
  origin,
  styles,
  bodyStyles = [],
  scripts = [],
  scriptUrls = [],
}: Omit<PageParts, 'meta' | 'body'>): string {
  const styleHashes = [...new Set([...styles, ...bodyStyles].map(sha256))];
  const runsScripts = scripts.length > 0 || scriptUrls.length > 0;
  return [
    "default-src 'none'",
    // a source matches a URL's path; the query (a cache buster) is not part of it
    `script-src ${runsScripts ? [...scripts.map(sha256), ...scriptUrls.map((u) => u.split('?')[0])].join(' ') : "'none'"}`,
    `style-src ${styleHashes.join(' ') || "'none'"}`,
    // vega writes font styles as attributes; attributes cannot run code, and nothing may load from CSS anyway
    "style-src-attr 'unsafe-inline'",
    `img-src ${origin} data:`,
    `media-src ${origin}`,
    "connect-src 'none'",
    "font-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `sandbox${runsScripts ? ' allow-scripts' : ''} allow-popups allow-popups-to-escape-sandbox`,
  ].join('; ');
}

export function renderPageShell(parts: PageParts): Page {
  const { meta } = parts;
  const e = escapeHtml;
  const tags = [
    `<title>${e(meta.title)}</title>`,
    meta.description && `<meta name="description" content="${e(meta.description)}">`,
    meta.indexable ? '' : '<meta name="robots" content="noindex">',
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${e(meta.title)}">`,
    meta.description && `<meta property="og:description" content="${e(meta.description)}">`,
    `<meta property="og:url" content="${e(meta.url)}">`,
    ...(meta.image
      ? [
          `<meta property="og:image" content="${e(meta.image.url)}">`,
          `<meta property="og:image:type" content="image/png">`,
          `<meta property="og:image:width" content="${meta.image.width}">`,
          `<meta property="og:image:height" content="${meta.image.height}">`,
          `<meta property="og:image:alt" content="${e(meta.image.alt)}">`,
          `<meta name="twitter:card" content="summary_large_image">`,
          `<meta name="twitter:image" content="${e(meta.image.url)}">`,
          `<meta name="twitter:image:alt" content="${e(meta.image.alt)}">`,
        ]
      : ['<meta name="twitter:card" content="summary">']),
    `<meta name="twitter:title" content="${e(meta.title)}">`,
    meta.description && `<meta name="twitter:description" content="${e(meta.description)}">`,
  ].filter(Boolean);
  const data = Object.entries(parts.data ?? {}).map(
    ([id, value]) => `<script type="application/json" id="${e(id)}">${jsonForScript(value)}</script>`,
  );
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    ...tags,
    ...parts.styles.map((css) => `<style>${css}</style>`),
    '</head>',
    '<body>',
    parts.body,
    ...data,
    ...(parts.scriptUrls ?? []).map((src) => `<script src="${e(src)}"></script>`),
    ...(parts.scripts ?? []).map((js) => `<script>${js}</script>`),
    '</body>',
    '</html>',
  ].join('\n');
  return { html, csp: pageCsp(parts) };
}

/** JSON inside <script type="application/json">: nothing in it can close the element or start a comment. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
