/**
 * The /c/:slug page: the server-rendered chart first (so it shows at once and without scripts), then the
 * live view (tooltips, selections) from the bundled runtime, which the CSP allows by its exact URL.
 */
import escapeHtml from 'escape-html';
import { type PageAddress, versionFooter } from '../pages/page-parts.js';
import { type PageMeta, renderPageShell } from '../pages/page-shell.js';
import { BASE_CSS } from '../pages/page-styles.js';
import type { Found } from '../versions/publication-model.js';

const CHART_PAGE_CSS = `
.fo-chart-frame { position: relative; }
#fo-chart { display: none; }
.fo-live #fo-chart { display: block; }
.fo-live .fo-chart-static { display: none; }
#fo-chart svg, .fo-chart-static svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
.fo-downloads { display: flex; gap: 16px; }
#vg-tooltip-element { visibility: hidden; position: fixed; z-index: 1000; padding: 8px 10px; border-radius: 8px; font: 12px/1.45 var(--font); background: var(--bg); color: var(--text); border: 1px solid var(--line); box-shadow: 0 4px 16px rgba(0, 0, 0, 0.12); max-width: 320px; pointer-events: none; }
#vg-tooltip-element.visible { visibility: visible; }
#vg-tooltip-element h2 { margin: 0 0 6px; font-size: 13px; }
#vg-tooltip-element table { border-spacing: 0; }
#vg-tooltip-element td { padding: 1px 0; vertical-align: top; }
#vg-tooltip-element td.key { color: var(--muted); padding-right: 10px; text-align: right; max-width: 140px; overflow: hidden; text-overflow: ellipsis; }
#vg-tooltip-element td.value { font-variant-numeric: tabular-nums; }
`;

export type ChartPageParts = {
  found: Found;
  staticSvg: { light: string; dark: string };
  specs: { light: object; dark: object };
  runtimeUrl: string;
  meta: PageMeta;
  address: PageAddress;
};

export function renderChartPage({ found, staticSvg, specs, runtimeUrl, meta, address }: ChartPageParts) {
  const { version } = found;
  const e = escapeHtml;
  const body = `<main class="fo-page fo-page-wide">
<header class="fo-page-header">
<h1 class="fo-page-title">${e(version.title)}</h1>
${version.description ? `<p class="fo-page-description">${e(version.description)}</p>` : ''}
${version.tags.length ? `<p class="fo-page-meta">${version.tags.map((t) => `<span class="fo-tag">${e(t)}</span>`).join('')}</p>` : ''}
</header>
<figure class="fo-figure fo-canvas fo-chart-frame">
<div id="fo-chart" role="img" aria-label="${e(version.title)}"></div>
<div class="fo-chart-static"><div class="fo-only-light">${staticSvg.light}</div><div class="fo-only-dark">${staticSvg.dark}</div></div>
</figure>
${versionFooter(found, address)}
</main>`;
  return renderPageShell({
    origin: new URL(address.base).origin,
    meta,
    body,
    styles: [BASE_CSS, CHART_PAGE_CSS],
    scriptUrls: [runtimeUrl],
    data: { 'fo-chart-spec': specs },
  });
}
