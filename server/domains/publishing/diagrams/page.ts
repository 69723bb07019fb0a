/** The /d/:slug page: the diagram inline (themed by the viewer's colour scheme), no scripts at all. */
import escapeHtml from 'escape-html';
import { type PageAddress, versionFooter } from '../pages/page-parts.js';
import { type PageMeta, renderPageShell } from '../pages/page-shell.js';
import { BASE_CSS } from '../pages/page-styles.js';
import type { Found } from '../versions/publication-model.js';

const DIAGRAM_PAGE_CSS = `.fo-downloads { display: flex; gap: 16px; }
.fo-page-wide { max-width: 1480px; }
.fo-canvas svg { width: 100%; }`;

/** Never shrunk below 70 % of its size: its text stays legible, and a wide diagram scrolls. */
function minWidth(found: Found): string {
  const width = found.version.derived?.width as number | undefined;
  return width
    ? ` style="min-width: ${Math.round(width * 0.7)}px; max-width: ${Math.round(width * 1.25)}px; margin: 0 auto"`
    : '';
}

export function renderDiagramPage(
  found: Found,
  svg: { svg: string; styles: string[] },
  meta: PageMeta,
  address: PageAddress,
) {
  const { version } = found;
  const e = escapeHtml;
  const body = `<main class="fo-page fo-page-wide">
<header class="fo-page-header">
<h1 class="fo-page-title">${e(version.title)}</h1>
${version.description ? `<p class="fo-page-description">${e(version.description)}</p>` : ''}
<p class="fo-page-meta">${version.kind ? `<span class="fo-tag">${e(version.kind)}</span>` : ''}${version.tags.map((t) => `<span class="fo-tag">${e(t)}</span>`).join('')}</p>
</header>
<figure class="fo-figure fo-canvas"><div${minWidth(found)}>${svg.svg}</div></figure>
${versionFooter(found, address)}
</main>`;
  return renderPageShell({
    origin: new URL(address.base).origin,
    meta,
    body,
    styles: [BASE_CSS, DIAGRAM_PAGE_CSS],
    bodyStyles: svg.styles,
  });
}
