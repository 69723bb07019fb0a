// Reads a V8 .cpuprofile (`node --cpu-prof`) into the functions that took the most self time, and the same time
// grouped by where the code lives (our server's folders, a package, Node internals).
import { readFile } from 'node:fs/promises';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };

export type HotSpot = { name: string; where: string; percent: number };
export type CpuSummary = { totalMs: number; top: HotSpot[]; byArea: { area: string; percent: number }[] };

/** `roots` are stripped from file URLs so a function reads as `server/store/file/query.ts:12`. */
export async function summarizeCpuProfile(path: string, roots: string[], topN = 15): Promise<CpuSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as Profile;
  const total = profile.samples.length || 1;
  const bySpot = new Map<string, HotSpot>();
  const byArea = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = shorten(url, roots);
    // tsx's output keeps no useful line numbers (every function reads as line 1): name the file only then
    const where = file && lineNumber > 0 ? `${file}:${lineNumber + 1}` : file;
    const name = functionName || (file ? '(anonymous)' : `(${functionName || 'native'})`);
    const key = `${name} ${where}`;
    const spot = bySpot.get(key) ?? { name, where, percent: 0 };
    spot.percent += (100 * hits) / total;
    bySpot.set(key, spot);
    const area = areaOf(file, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + (100 * hits) / total);
  }
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    top: [...bySpot.values()].sort((a, b) => b.percent - a.percent).slice(0, topN),
    byArea: [...byArea]
      .map(([area, percent]) => ({ area, percent }))
      .sort((a, b) => b.percent - a.percent)
      .slice(0, topN),
  };
}

function shorten(url: string, roots: string[]): string {
  let file = url.replace(/^file:\/\//, '');
  for (const root of roots) if (file.startsWith(root)) file = file.slice(root.length).replace(/^\//, '');
  return file.replace(/^.*node_modules\//, 'node_modules/');
}

function areaOf(file: string, functionName: string): string {
  if (!file)
    return functionName === '(idle)'
      ? '(idle)'
      : functionName === '(garbage collector)'
        ? '(gc)'
        : '(native)';
  if (file.startsWith('node:')) return 'node: internals';
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  const parts = file.split('/');
  return parts.slice(0, Math.min(3, parts.length - 1)).join('/') || file;
}
