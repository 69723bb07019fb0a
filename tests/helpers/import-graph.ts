// The import graph of a source tree as the boundary tests read it: every file, every import, export-from and
// dynamic import between them (type-only ones too: a loop of types is still a loop a reader must untangle).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Edge = { from: string; to: string };
export type ImportGraph = { files: string[]; edges: Edge[] };

const SOURCE = /\.(ts|tsx|mjs)$/;
const SPECIFIERS =
  /(?:^|[\s;])(?:import|export)\s(?:type\s)?[^;'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm;

/** Every source file under `dir` (relative to the repository root) and the imports between them. */
export function importGraph(dir: string): ImportGraph {
  const files = readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => SOURCE.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f).split('\\').join('/'))
    .sort();
  const edges: Edge[] = [];
  for (const from of files) {
    const text = readFileSync(join(ROOT, from), 'utf8');
    for (const m of text.matchAll(SPECIFIERS)) {
      const to = resolveImport(from, m[1] ?? m[2] ?? m[3]);
      if (to) edges.push({ from, to });
    }
  }
  return { files, edges };
}

/** The repository path an import names, or undefined for a package. */
function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = resolve(ROOT, dirname(from), specifier);
  else if (specifier.startsWith('@server/'))
    base = resolve(ROOT, 'server', specifier.slice('@server/'.length));
  else return undefined;
  const stem = base.replace(/\.(js|ts|tsx|mjs)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mjs`, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile())
      return relative(ROOT, candidate).split('\\').join('/');
  return undefined;
}

/**
 * Where a server file sits: its layer and, in domains, surfaces and engines, its unit (the folder under the layer).
 * The platform is what every layer stands on: http/, store/, config, log and version. The root wires them.
 */
export function layerOf(path: string): { layer: string; unit?: string } {
  const parts = path.split('/');
  if (parts[0] !== 'server') return { layer: 'outside' };
  const [, top, unit] = parts;
  if (['domains', 'surfaces', 'engines', 'jobs'].includes(top))
    return { layer: top, unit: unit?.replace(/\.tsx?$/, '') };
  if (['http', 'store'].includes(top) || /^(config|log|version)\.ts$/.test(top)) return { layer: 'platform' };
  return { layer: 'root' };
}

/** Each loop in the graph as `a → b → … → a`, one per strongly connected set of files, shortest from its first. */
export function importLoops(graph: ImportGraph): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of graph.edges) next.set(from, [...(next.get(from) ?? []), to]);
  return stronglyConnected(graph.files, next)
    .filter((set) => set.length > 1)
    .map((set) => shortestLoop(set.sort()[0], new Set(set), next).join(' → '));
}

/** Tarjan's algorithm, iteratively (a long chain of imports must not overflow the stack). */
function stronglyConnected(nodes: string[], next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sets: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: root, i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const targets = next.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const to = targets[frame.i++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const set: string[] = [];
        let node: string;
        do {
          node = stack.pop()!;
          onStack.delete(node);
          set.push(node);
        } while (node !== frame.node);
        sets.push(set);
      }
    }
  }
  return sets;
}

/** The shortest path from `start` back to itself inside `set` (breadth first). */
function shortestLoop(start: string, set: Set<string>, next: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of next.get(node) ?? []) {
      if (!set.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}
