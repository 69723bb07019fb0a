/**
 * The charts API and its serve routes (docs/publishing.md). Order is explicit: /preview before /:slug, the
 * runtime script and /c/:slug.svg and .png before /c/:slug, so "q3.png" is never read as a slug.
 */
import type { Context } from 'koa';
import { defineRawRoute, defineRoute } from '../../../deps.js';
import { reply } from '../../../http/reply.js';
import { actingAsCaller } from '../embeds/acting-as-caller.js';
import { serveRoutes } from '../pages/serve-routes.js';
import { publicationRoutes } from '../versions/shared-routes.js';
import { RUNTIME_PATH } from './runtime-bundle.js';
import {
  ChartPageQuery,
  ChartPreview,
  ChartSpec,
  PreviewChartBody,
  PreviewQuery,
  PublishChartBody,
  RuntimeQuery,
  UpdateChartBody,
} from './schema.js';

const shared = publicationRoutes({
  kind: 'charts',
  noun: 'chart',
  service: 'charts',
  paths: { prefix: '/c', svg: true, png: true },
  documentField: 'spec',
  documentSchema: ChartSpec,
  publishBody: PublishChartBody,
  updateBody: UpdateChartBody,
  listDescription:
    '`q` (title, description, tags), `tag` (repeat or comma list; all must match), `includeArchived=true`, `limit` 1-200, `cursor`.',
  serviceOf: (deps) => deps.charts,
});

// Publishing, new versions and previews run with the caller's services: a chart reads the workspace's data assets
// only for a caller with the assets service (data-scope.ts).
export const listCharts = shared.list;
export const publishChart = { ...shared.publish, handler: actingAsCaller('charts', shared.publish.handler) };

const preview = defineRoute({
  method: 'POST',
  path: '/api/v1/charts/preview',
  auth: ['session', 'key'],
  service: 'charts',
  body: PreviewChartBody,
  query: PreviewQuery,
  response: ChartPreview,
  tool: 'charts_preview',
  summary: 'Validate a Vega-Lite spec and render it (SVG and PNG) without publishing',
  description:
    'Answers JSON with `svg`, `png` as a data URL and the size; `?format=png` answers the PNG bytes instead. Errors are 400 with `issues` as JSON pointers into the spec (schema errors name the nearest valid value); remote or file URLs, image marks, links and expressions that reach outside the chart are refused. Data from a workspace asset (`"url": "asset:<id>"`) needs the `assets` service too (403 naming it, with the pointer in `issues`). At most 200,000 data rows (413).',
  handler: async ({ workspace, body, query }, { charts }) => {
    const out = await charts.preview(workspace.id, body);
    const png = Buffer.from(out.png!.bytes);
    if (query.format === 'png') return reply.bytes('image/png', png, { 'Cache-Control': 'no-store' });
    return {
      svg: out.svg!,
      width: out.width,
      height: out.height,
      rows: out.rows,
      png: `data:image/png;base64,${png.toString('base64')}`,
      pngWidth: out.png!.width,
      pngHeight: out.png!.height,
    };
  },
});
export const previewChart = { ...preview, handler: actingAsCaller('charts', preview.handler) };

export const getChart = shared.get;
export const updateChart = { ...shared.update, handler: actingAsCaller('charts', shared.update.handler) };
export const chartVersions = shared.versions;
export const archiveChart = shared.archive;
export const unarchiveChart = shared.unarchive;
export const setChartVisibility = shared.visibility;

export const chartRuntimeScript = defineRawRoute({
  method: 'GET',
  path: RUNTIME_PATH,
  auth: 'public',
  query: RuntimeQuery,
  hidden: true,
  summary: 'The chart page script (vega with its CSP-safe interpreter and tooltips)',
  handler: async ({ query, ctx }, { charts }) => serveRuntime(ctx, await charts.runtime(), query.v),
});

const served = serveRoutes('c', ChartPageQuery, {
  chartSvg: {
    form: 'svg',
    summary: 'A chart as SVG (?theme=dark for the dark theme)',
    render: ({ charts }, r) => charts.svg(r.slug, r.viewer, r.version, r.theme),
  },
  chartPng: {
    form: 'png',
    summary: 'A chart as PNG (?theme=dark for the dark theme)',
    render: ({ charts }, r) => charts.png(r.slug, r.viewer, r.version, r.theme),
  },
  chartPage: {
    form: 'page',
    summary: 'An interactive chart page',
    render: ({ charts }, r) => charts.page(r.slug, r.viewer, r.version, r.origin),
  },
});

function serveRuntime(ctx: Context, runtime: { code: Buffer; hash: string }, v?: string) {
  const etag = `"${runtime.hash}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': v === runtime.hash ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (ctx.get('if-none-match') === etag) return reply.empty(304, headers);
  return reply.bytes('text/javascript; charset=utf-8', runtime.code, headers);
}

/** Mount order: fixed words before /:slug; the runtime, .svg and .png before the page. */
export const chartRoutes = {
  listCharts,
  publishChart,
  previewChart,
  getChart,
  updateChart,
  chartVersions,
  archiveChart,
  unarchiveChart,
  setChartVisibility,
  chartRuntimeScript,
  ...served,
};
