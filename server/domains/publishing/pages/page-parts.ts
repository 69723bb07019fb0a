/**
 * What every publication's page shares: its address (the latest version at /<letter>/<slug>, an older one with
 * `?version=`), the meta tags with its PNG preview card, and the footer naming the version with its downloads.
 */
import escapeHtml from 'escape-html';
import type { Found } from '../versions/publication-model.js';
import type { PageMeta } from './page-shell.js';

export type PageAddress = { base: string; query: string };

export function pageAddress(found: Found, origin: string, letter: 'a' | 'c' | 'd'): PageAddress {
  const { item, version } = found;
  return {
    base: `${origin}/${letter}/${item.slug}`,
    query: version.version === item.version ? '' : `?version=${version.version}`,
  };
}

/** Open Graph and Twitter tags: the card is the version's PNG, whose size the render reported. */
export function pageMeta(found: Found, { base, query }: PageAddress, card: { [field: string]: unknown }) {
  const { item, version } = found;
  return {
    title: version.title,
    description: version.description,
    url: `${base}${query}`,
    image: {
      url: `${base}.png${query}`,
      width: card.width as number,
      height: card.height as number,
      alt: version.title,
    },
    indexable: item.visibility === 'public',
  } satisfies PageMeta;
}

export function versionFooter(found: Found, { base, query }: PageAddress): string {
  const { item, version } = found;
  const e = escapeHtml;
  return `<footer class="fo-page-footer"><span>Version ${version.version} of ${item.version} · ${e(version.createdAt.slice(0, 10))}</span>
<span class="fo-downloads"><a href="${e(`${base}.svg${query}`)}">SVG</a><a href="${e(`${base}.png${query}`)}">PNG</a></span></footer>`;
}
