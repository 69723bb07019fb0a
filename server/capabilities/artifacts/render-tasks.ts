/** The artifact tasks a render worker runs (render-pool.ts loads this module in each worker). */
import { renderPreviewCard } from '../publishing/preview-card.js';
import { sanitizeSvg } from '../publishing/svg/sanitize-svg.js';
import type { Resolved } from './components/resolved.js';
import { type ArtifactPageInput, renderArtifactPage } from './render-page.js';
import { validateArtifact } from './validate-document.js';

/** Chart SVGs come from vega; they still pass the SVG sanitizer before going into a page. */
function checkedCharts(charts: Resolved['charts']): Resolved['charts'] {
  const checked: Resolved['charts'] = {};
  for (const [pointer, chart] of Object.entries(charts)) {
    if ('error' in chart) checked[pointer] = chart;
    else {
      const clean = (svg: string) =>
        `<svg xmlns="http://www.w3.org/2000/svg" ${rootAttributes(svg)}>${sanitizeSvg(svg).content}</svg>`;
      checked[pointer] = { ...chart, light: clean(chart.light), dark: clean(chart.dark) };
    }
  }
  return checked;
}

/** width, height and viewBox of vega's own root element. */
function rootAttributes(svg: string): string {
  const root = svg.slice(0, svg.indexOf('>'));
  return ['width', 'height', 'viewBox']
    .map((name) => new RegExp(` ${name}="([^"]*)"`).exec(root)?.[0]?.trim())
    .filter(Boolean)
    .join(' ');
}

export const renderTasks = {
  'artifacts.check': validateArtifact,
  'artifacts.page': (input: ArtifactPageInput) =>
    renderArtifactPage({
      ...input,
      resolved: { ...input.resolved, charts: checkedCharts(input.resolved.charts) },
    }),
  'artifacts.card': renderPreviewCard,
};
