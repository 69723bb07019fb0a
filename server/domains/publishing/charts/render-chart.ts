/**
 * The chart pipeline, run in a render worker: check → validate against the Vega-Lite schema → inline the
 * workspace's asset data → compile → guard expressions → render with vega's CSP-safe interpreter and a
 * loader that refuses everything → SVG, PNG, and the compiled specs the interactive page runs.
 */
import * as vega from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import * as vl from 'vega-lite';
import { type RasterOptions, rasterize } from '../../../engines/render/rasterize.js';
import { invalid, tooLarge, unrenderable } from '../../../engines/render/render-failure.js';
import { DEFAULT_PARSE_LIMITS } from '../../../engines/render/svg/parse-svg.js';
import { sanitizeSvg } from '../../../engines/render/svg/sanitize-svg.js';
import { measureText } from '../../../engines/render/text-measure.js';
import { type AssetRef, checkChartSpec } from './chart-safety.js';
import { type ChartTheme, chartBackground, chartConfig } from './chart-theme.js';
import {
  findForbiddenName,
  findUnparsable,
  isHostGlobal,
  issueFor,
  pointerOfText,
} from './expression-guard.js';
import { validateVegaLite } from './vega-lite-schema.js';

export const CHART_LIMITS = { rows: 200_000, svgBytes: 32 << 20 };
/** Vega's own SVG of a chart within the row bound: a mark per row, axes and legends besides. */
const CHART_SVG_LIMITS = { ...DEFAULT_PARSE_LIMITS, maxElements: CHART_LIMITS.rows + 50_000 };

export type ChartAsset = { text: string; format: 'csv' | 'tsv' | 'json' };

export type ChartRenderInput = {
  spec: unknown;
  /** The bytes of every asset the spec names, read by the main thread from the workspace. */
  assets?: Record<string, ChartAsset>;
  /** `sanitize`: pass vega's SVG through the SVG sanitizer (for SVG that goes inline into a page). */
  svg?: { theme?: ChartTheme; sanitize?: boolean };
  png?: RasterOptions & { theme?: ChartTheme };
  /** The compiled Vega specs for /c/:slug (light with data, dark without: the page copies it over). */
  page?: boolean;
};

export type ChartRenderOutput = {
  width: number;
  height: number;
  rows: number;
  svg?: string;
  png?: { bytes: Uint8Array; width: number; height: number };
  page?: { light: object; dark: object };
};

/** Fails on a forbidden or unreadable request, else nothing: 400s with every problem's JSON pointer. */
export function checkChart(spec: unknown): { assets: AssetRef[]; inlineRows: number } {
  const safety = checkChartSpec(spec);
  if (safety.issues.length)
    throw invalid(
      `The chart asks for something charts may not do: ${safety.issues[0].message}`,
      safety.issues,
    );
  const issues = validateVegaLite(spec);
  if (issues.length)
    throw invalid(`The chart is not valid Vega-Lite: ${issues[0].path || '/'} ${issues[0].message}`, issues);
  return safety;
}

export async function renderChart(input: ChartRenderInput): Promise<ChartRenderOutput> {
  const { assets, inlineRows } = checkChart(input.spec);
  const { spec, rows } = inlineAssets(input.spec, assets, input.assets ?? {}, inlineRows);
  const light = compile(spec, input.svg?.theme ?? input.png?.theme ?? 'light');
  const runtime = parseVega(light, input.spec);
  const svg = await drawSvg(runtime);
  const size = sizeOf(svg);
  const output: ChartRenderOutput = { ...size, rows };
  if (input.svg) output.svg = input.svg.sanitize ? sanitizedSvg(svg) : svg;
  if (input.png) {
    const theme = input.png.theme ?? 'light';
    const themed =
      theme === (input.svg?.theme ?? 'light')
        ? svg
        : await drawSvg(parseVega(compile(spec, theme), input.spec));
    const raster = rasterize(themed, sizeOf(themed), { background: chartBackground(theme), ...input.png });
    output.png = { bytes: raster.png, width: raster.width, height: raster.height };
  }
  if (input.page) output.page = withoutFunctions({ light, dark: withoutValues(compile(spec, 'dark')) });
  return output;
}

function compile(spec: unknown, theme: ChartTheme): vega.Spec {
  try {
    // Vega-Lite's warnings are the author's business, not lines in the server's log
    const options = { config: chartConfig(theme) as vl.Config, logger: vega.logger(vega.None) };
    return vl.compile(spec as vl.TopLevelSpec, options).spec;
  } catch (error) {
    const message = (error as Error).message;
    const issue = findUnparsable(spec) ?? { path: '', message };
    throw invalid(`Vega-Lite could not compile the chart: ${issue.message}`, [issue]);
  }
}

/** Vega's parser keeps each expression's AST (for the guard and the interpreter); its errors are the author's. */
function parseVega(compiled: vega.Spec, source: unknown): vega.Runtime {
  let runtime: vega.Runtime;
  try {
    runtime = vega.parse(compiled, undefined, { ast: true });
  } catch (error) {
    const message = (error as Error).message;
    const name = /signal name: "([^"]+)"/.exec(message)?.[1];
    if (name && isHostGlobal(name))
      throw invalid(`The chart's expressions reach outside the chart (${name})`, [issueFor(name, source)]);
    // vega names the expression it could not parse; point at the string in the document that holds it
    const expression = /parse error: (.*)$/s.exec(message)?.[1];
    const path = (expression && pointerOfText(source, expression)) || '';
    throw invalid(`The chart's expressions could not be parsed: ${message}`, [
      { path, message: `expression could not be parsed: ${message}` },
    ]);
  }
  const forbidden = findForbiddenName(runtime);
  if (forbidden)
    throw invalid(`The chart's expressions reach outside the chart (${forbidden})`, [
      issueFor(forbidden, source),
    ]);
  return runtime;
}

/** Nothing is ever fetched: data is inline by now, and images and links were refused up front. */
const refusingLoader = {
  load: async (uri: string) => {
    throw new Error(`charts load nothing (${uri})`);
  },
  sanitize: async (uri: string) => {
    throw new Error(`charts load nothing (${uri})`);
  },
  http: async () => {
    throw new Error('charts load nothing');
  },
  file: async () => {
    throw new Error('charts load nothing');
  },
};

// Server-side text has no canvas to measure with; measure in the shipped font the PNG is drawn with.
type TextItem = { fontSize?: number; fontWeight?: string | number };
const { textMetrics } = vega as unknown as {
  textMetrics: { width: (item: TextItem, text: unknown) => number };
};
textMetrics.width = (item, text) => {
  const size = item.fontSize != null ? +item.fontSize || 0 : 11;
  const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
  return measureText(text == null ? '' : String(text).trim(), size, bold ? 'bold' : 'regular');
};

async function drawSvg(runtime: vega.Runtime): Promise<string> {
  let view: vega.View | undefined;
  try {
    view = new vega.View(runtime, {
      renderer: 'none',
      loader: refusingLoader as unknown as vega.Loader,
      expr: expressionInterpreter,
      logLevel: vega.None,
    });
    await view.runAsync();
    const svg = await view.toSVG();
    if (svg.length > CHART_LIMITS.svgBytes)
      throw tooLarge(
        `The chart draws ${Math.round(svg.length / 2 ** 20)} MiB of SVG; aggregate the data (at most 32 MiB)`,
      );
    return svg;
  } catch (error) {
    if ((error as Error).name === 'RenderFailure') throw error;
    throw unrenderable(`The chart could not be rendered: ${(error as Error).message}`);
  } finally {
    view?.finalize();
  }
}

/** Vega's markup is escaped, but SVG that goes inline into a page passes the same allow-list as diagrams. */
function sanitizedSvg(svg: string): string {
  const root = svg.slice(0, svg.indexOf('>'));
  const keep = ['width', 'height', 'viewBox']
    .map((name) => new RegExp(` ${name}="[^"]*"`).exec(root)?.[0] ?? '')
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg"${keep}>${sanitizeSvg(svg, { limits: CHART_SVG_LIMITS }).content}</svg>`;
}

/** Vega's own SVG root carries width="..." height="...". */
function sizeOf(svg: string): { width: number; height: number } {
  const root = svg.slice(0, svg.indexOf('>'));
  const read = (name: string) => Number(new RegExp(` ${name}="([\\d.]+)"`).exec(root)?.[1] ?? 0);
  return { width: read('width'), height: read('height') };
}

function inlineAssets(spec: unknown, refs: AssetRef[], data: Record<string, ChartAsset>, inlineRows: number) {
  if (refs.length === 0) {
    if (inlineRows > CHART_LIMITS.rows)
      throw tooLarge(
        `The chart has ${inlineRows.toLocaleString('en')} data rows; at most ${CHART_LIMITS.rows.toLocaleString('en')} (aggregate first)`,
      );
    return { spec, rows: inlineRows };
  }
  const copy = structuredClone(spec) as Record<string, unknown>;
  let rows = inlineRows;
  for (const { assetId, pointer } of refs) {
    const asset = data[assetId];
    if (!asset)
      throw invalid(`No CSV or JSON asset ${assetId} in this workspace`, [
        { path: pointer, message: `no CSV or JSON asset ${assetId} in this workspace` },
      ]);
    const holder = parentOf(copy, pointer);
    const format = { ...((holder.format as object) ?? {}), type: asset.format };
    delete holder.url;
    if (asset.format === 'json') {
      const parsed = parseJsonRows(asset.text, assetId, pointer);
      holder.values = parsed;
      rows += parsed.length;
      holder.format = { ...format, type: 'json' };
    } else {
      holder.values = asset.text;
      holder.format = format;
      rows += asset.text.split('\n').filter(Boolean).length - 1;
    }
  }
  if (rows > CHART_LIMITS.rows)
    throw tooLarge(
      `The chart has ${rows.toLocaleString('en')} data rows; at most ${CHART_LIMITS.rows.toLocaleString('en')} (aggregate first)`,
    );
  return { spec: copy, rows };
}

function parseJsonRows(text: string, assetId: string, pointer: string): unknown[] {
  try {
    const parsed = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed;
  } catch {}
  throw invalid(`Asset ${assetId} is not a JSON array of rows`, [
    { path: pointer, message: `asset ${assetId} is not a JSON array of rows` },
  ]);
}

function parentOf(root: Record<string, unknown>, pointer: string): Record<string, unknown> {
  const keys = pointer
    .split('/')
    .slice(1, -1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  return keys.reduce(
    (node, key) => (node as Record<string, unknown>)[key] as Record<string, unknown>,
    root as unknown,
  ) as Record<string, unknown>;
}

/**
 * The compiled specs as the JSON they are meant to be, after vega ran one: vega's selection functions cache
 * field accessors (`getter` functions) on signal values, objects that Vega-Lite shares between compiles of one
 * spec (animated and interactive charts); the page's JSON and the process boundary drop or refuse them.
 */
function withoutFunctions<T>(node: T): T {
  if (typeof node !== 'object' || node === null) return node;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'function') delete (node as Record<string, unknown>)[key];
    else withoutFunctions(value); // rows too: a selection's stored tuples carry them
  }
  return node;
}

/** The dark spec's datasets without their rows: the page fills them from the light spec by name. */
function withoutValues(spec: vega.Spec): vega.Spec {
  return { ...spec, data: spec.data?.map((d) => ('values' in d ? { ...d, values: [] } : d)) };
}
