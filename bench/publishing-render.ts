/**
 * Publishing render bench: each of our pipelines beside the plain library call doing the same drawing, in
 * one run, in this process (the pool's thread hop is measured in bench/publishing-pages.ts).
 *   - chart SVG (and SVG + PNG), 1k and 100k rows: renderChart (checks, Vega-Lite schema, compile, expression
 *     guard, vega with the interpreter, resvg) vs vega-lite compile + vega View.toSVG (+ resvg) alone, vega in
 *     the same interpreter mode, and in its default mode for reference;
 *   - diagram preview of 50 nodes: renderDiagram (parse, allow-list, theme, PNG) vs resvg rendering the
 *     final SVG alone;
 *   - layout of 50 and 500 nodes: layoutGraph + layoutSvg (sizing, ELK, routes, drawing) vs elk.layout alone.
 * `npx tsx bench/publishing-render.ts [--runs 5]`
 */
import { Resvg } from '@resvg/resvg-js';
import elkModule from 'elkjs/lib/elk.bundled.js';
import * as vega from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import * as vl from 'vega-lite';
import { renderChart } from '../server/domains/publishing/charts/render-chart.js';
import { diagramDocument } from '../server/domains/publishing/diagrams/diagram-document.js';
import { layoutGraph } from '../server/domains/publishing/diagrams/layout.js';
import { LayoutRequest } from '../server/domains/publishing/diagrams/layout-schema.js';
import { layoutSvg } from '../server/domains/publishing/diagrams/layout-svg.js';
import { renderDiagram } from '../server/domains/publishing/diagrams/render-diagram.js';
import { RESVG_FONT } from '../server/engines/render/rasterize.js';
import { sanitizeSvg } from '../server/engines/render/svg/sanitize-svg.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const rows: string[] = [];

/** Medians of ours and the peer, their runs interleaved so that load on the machine falls on both alike. */
async function medians(ours: () => unknown, plain: () => unknown): Promise<[number, number]> {
  await ours(); // warm: first calls compile schemas and JIT
  await plain();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [side, fn] of [ours, plain].entries()) {
      const start = performance.now();
      await fn();
      times[side].push(performance.now() - start);
    }
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return [median(times[0]), median(times[1])];
}

async function compare(test: string, ours: () => unknown, plain: () => unknown, peer: string) {
  const [a, b] = await medians(ours, plain);
  const row = `| ${test} | ${a.toFixed(1)} | ${b.toFixed(1)} (${peer}) | ${(a / b).toFixed(2)}× |`;
  rows.push(row);
  console.log(row);
}

console.log(`median of ${runs} runs after one warm-up each, Folio's and the peer's runs interleaved, ms\n`);
console.log('| test | Folio ms | plain library ms | ratio |\n|---|---|---|---|');

for (const n of [1_000, 100_000]) {
  const values = Array.from({ length: n }, (_, i) => ({
    t: i,
    v: Math.sin(i / 50) * 100 + (i % 7),
    g: `s${i % 3}`,
  }));
  const spec = {
    data: { values },
    mark: 'line',
    encoding: {
      x: { field: 't', type: 'quantitative' },
      y: { field: 'v', type: 'quantitative' },
      color: { field: 'g', type: 'nominal' },
    },
    width: 600,
    height: 300,
  };
  // vega's interpreter is the mode Folio runs (no generated code: the page's CSP allows none); the default
  // mode's code generation is shown beside it for reference.
  const plainSvg = async (interpreted: boolean) => {
    const compiled = vl.compile(spec as vl.TopLevelSpec).spec;
    const runtime = vega.parse(compiled, undefined, interpreted ? { ast: true } : undefined);
    const view = new vega.View(runtime, {
      renderer: 'none',
      ...(interpreted && { expr: expressionInterpreter }),
    });
    const svg = await view.toSVG();
    view.finalize();
    return svg;
  };
  const label = `${n.toLocaleString('en')} rows`;
  await compare(
    `chart SVG, ${label}`,
    () => renderChart({ spec, svg: {} }),
    () => plainSvg(true),
    'vega-lite + vega, interpreter',
  );
  await compare(
    `chart SVG, ${label}`,
    () => renderChart({ spec, svg: {} }),
    () => plainSvg(false),
    'vega-lite + vega, default mode',
  );
  await compare(
    `chart SVG + PNG, ${label}`,
    () => renderChart({ spec, svg: {}, png: { scale: 2 } }),
    async () =>
      new Resvg(await plainSvg(true), { font: RESVG_FONT, fitTo: { mode: 'zoom', value: 2 } })
        .render()
        .asPng(),
    'vega-lite + vega, interpreter + resvg',
  );
}

const fifty = Array.from({ length: 50 }, (_, i) => {
  const x = (i % 10) * 160;
  const y = Math.floor(i / 10) * 90;
  const edge = i % 10 < 9 ? `<path class="edge" d="M${x + 120},${y + 24} L${x + 160},${y + 24}"/>` : '';
  return `<g class="${['ok', 'warn', 'error', 'emphasis', 'muted'][i % 5]}"><rect class="node" x="${x}" y="${y}" width="120" height="48" rx="8"/><text class="label" x="${x + 60}" y="${y + 24}">Service ${i}</text></g>${edge}`;
}).join('');
const diagram = `<svg viewBox="-20 -20 1640 480">${fifty}</svg>`;
const finalSvg = diagramDocument(
  sanitizeSvg(diagram).content,
  { x: -20, y: -20, width: 1640, height: 480 },
  { theme: 'light' },
);
await compare(
  'diagram preview, 50 nodes (sanitize + theme + PNG ×2)',
  () => renderDiagram({ svg: diagram, png: { scale: 2 } }),
  () => new Resvg(finalSvg.svg, { font: RESVG_FONT, fitTo: { mode: 'zoom', value: 2 } }).render().asPng(),
  'resvg-js render of the same SVG',
);

const elk = new elkModule.default();
for (const n of [50, 500]) {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, label: `Node ${i}` }));
  const edges = Array.from({ length: n - 1 }, (_, i) => ({ from: `n${Math.floor(i / 2)}`, to: `n${i + 1}` }));
  const request = LayoutRequest.parse({ nodes, edges, format: 'svg' });
  const plainGraph = {
    id: 'root',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.edgeRouting': 'ORTHOGONAL' },
    children: nodes.map((node) => ({ id: node.id, width: 120, height: 40 })),
    edges: edges.map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  };
  await compare(
    `layout, ${n} nodes (+ SVG)`,
    async () => layoutSvg(request, await layoutGraph(request)),
    () => elk.layout(structuredClone(plainGraph)),
    'elkjs layout alone',
  );
}
