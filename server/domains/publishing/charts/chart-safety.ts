/**
 * What a chart document may ask for, checked before anything compiles: data only inline or from the
 * workspace's own assets (`"url": "asset:<asset id>"`), no images, no links. Each problem gets its pointer.
 * Rows a spec generates (a `sequence` source, an impute's `keyvals` sequence) count like inline rows; what
 * other transforms multiply is bounded by the render process's heap (a 422, never the server's end).
 */
import type { Issue } from '../../../engines/render/render-failure.js';

export const ASSET_URL = /^asset:(ast_[A-Za-z0-9_-]{1,64})$/;

export type AssetRef = { assetId: string; pointer: string };
export type SafetyReport = { issues: Issue[]; assets: AssetRef[]; inlineRows: number };

/** A sequence's rows as vega counts them (d3's range); a step of 0 or a non-number never ends. */
export function sequenceRows(sequence: unknown): number {
  const { start = 0, stop, step = 1 } = sequence as { start?: unknown; stop?: unknown; step?: unknown };
  if (typeof start !== 'number' || typeof stop !== 'number' || typeof step !== 'number') return 0;
  const rows = Math.ceil((stop - start) / step);
  return Number.isNaN(rows) ? 0 : Math.max(0, rows);
}

const pointerKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export function checkChartSpec(spec: unknown): SafetyReport {
  const report: SafetyReport = { issues: [], assets: [], inlineRows: 0 };
  visit(spec, '', report, undefined);
  return report;
}

function visit(value: unknown, pointer: string, report: SafetyReport, parentKey: string | undefined): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      visit(item, `${pointer}/${i}`, report, parentKey);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const at = `${pointer}/${pointerKey(key)}`;
    if (key === 'url' && typeof child === 'string') checkUrl(child, at, report);
    else if (parentKey === 'encoding' && (key === 'href' || key === 'url'))
      report.issues.push({
        path: at,
        message: `the ${key} channel is not supported: charts do not link out or load images`,
      });
    else if (key === 'mark' && (child === 'image' || (child as { type?: string })?.type === 'image'))
      report.issues.push({ path: at, message: 'image marks are not supported: charts cannot load images' });
    else if ((key === 'sequence' || key === 'keyvals') && typeof child === 'object' && !Array.isArray(child))
      report.inlineRows += sequenceRows(child);
    else if (key === 'values') {
      // rows are data, not instructions: a column named "url" is just a column
      if (Array.isArray(child)) report.inlineRows += child.length;
      else if (typeof child === 'string') report.inlineRows += child.split('\n').length - 1;
      continue;
    }
    if (typeof child === 'object' && child !== null) visit(child, at, report, key);
  }
}

function checkUrl(url: string, pointer: string, report: SafetyReport): void {
  const asset = ASSET_URL.exec(url);
  if (asset) report.assets.push({ assetId: asset[1], pointer });
  else
    report.issues.push({
      path: pointer,
      message: `charts cannot load data from a URL or file ("${url.slice(0, 80)}"): put the rows in "values", or upload a CSV/JSON asset and use "url": "asset:<asset id>"`,
    });
}
