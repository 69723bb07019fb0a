import { describe, expect, it } from 'vitest';
import { layoutGraph } from '../../../../../server/domains/publishing/diagrams/layout.js';
import { LayoutRequest } from '../../../../../server/domains/publishing/diagrams/layout-schema.js';
import { runLayout } from '../../../../../server/domains/publishing/diagrams/render-tasks.js';
import { RenderFailure } from '../../../../../server/engines/render/render-failure.js';
import { sanitizeSvg } from '../../../../../server/engines/render/svg/sanitize-svg.js';
import { parseAsSvg } from '../svg-helpers.js';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
const onBorder = (p: { x: number; y: number }, b: Box) =>
  Math.abs(p.x - b.x) < 1 || Math.abs(p.x - b.x - b.width) < 1
    ? p.y >= b.y - 1 && p.y <= b.y + b.height + 1
    : (Math.abs(p.y - b.y) < 1 || Math.abs(p.y - b.y - b.height) < 1) &&
      p.x >= b.x - 1 &&
      p.x <= b.x + b.width + 1;

const graph = LayoutRequest.parse({
  groups: [
    { id: 'backend', label: 'Backend' },
    { id: 'data', label: 'Data', parent: 'backend' },
  ],
  nodes: [
    { id: 'web', label: 'Web app' },
    { id: 'api', label: 'API', parent: 'backend', ports: [{ id: 'out', side: 'east' }] },
    { id: 'db', label: 'Orders', shape: 'store', parent: 'data' },
    { id: 'ok', label: 'Paid?', shape: 'decision' },
  ],
  edges: [
    { from: 'web', to: 'api', label: 'HTTPS' },
    { from: 'api', fromPort: 'out', to: 'db' },
    { from: 'api', to: 'ok' },
  ],
  direction: 'right',
});

describe('layoutGraph (ELK)', () => {
  it('places nodes without overlap, inside their nested groups, with orthogonal routes from border to border', async () => {
    const laid = await layoutGraph(graph);
    const box = (id: string) => [...laid.nodes, ...laid.groups].find((n) => n.id === id)!;
    for (const a of laid.nodes) for (const b of laid.nodes) if (a !== b) expect(overlaps(a, b)).toBe(false);
    expect(inside(box('db'), box('data'))).toBe(true);
    expect(inside(box('data'), box('backend'))).toBe(true);
    expect(inside(box('api'), box('backend'))).toBe(true);
    for (const edge of laid.edges) {
      expect(onBorder(edge.points[0], box(edge.from))).toBe(true);
      expect(onBorder(edge.points.at(-1)!, box(edge.to))).toBe(true);
      for (let i = 1; i < edge.points.length; i++) {
        const [a, b] = [edge.points[i - 1], edge.points[i]];
        expect(Math.abs(a.x - b.x) < 0.01 || Math.abs(a.y - b.y) < 0.01).toBe(true); // orthogonal
      }
    }
    const api = box('api');
    expect(laid.edges[1].points[0].x).toBeCloseTo(api.x + api.width, 0); // the east port
    expect(laid.edges[0].label).toMatchObject({ text: 'HTTPS' });
  });

  it('lays out top to bottom when asked', async () => {
    const laid = await layoutGraph({
      ...graph,
      groups: [],
      nodes: graph.nodes.map((n) => ({ ...n, parent: undefined, ports: undefined })),
      edges: [{ ...graph.edges[0] }],
      direction: 'down',
    });
    const [web, api] = ['web', 'api'].map((id) => laid.nodes.find((n) => n.id === id)!);
    expect(api.y).toBeGreaterThan(web.y + web.height);
  });

  it('answers a publishable SVG in the vocabulary with format svg', async () => {
    const result = await runLayout({ ...graph, format: 'svg', title: 'Checkout' });
    expect(parseAsSvg(result.svg!).root).toEqual({ name: 'svg', uri: 'http://www.w3.org/2000/svg' });
    const checked = sanitizeSvg(result.svg!);
    expect(checked.warnings).toEqual([]);
    expect(checked.viewBox).toEqual({ x: 0, y: 0, width: result.width, height: result.height });
    expect(result.svg).toContain('class="store"');
    expect(result.svg).toContain('class="decision"');
  });

  it('names every dangling reference with a JSON pointer', async () => {
    const bad = LayoutRequest.parse({
      nodes: [{ id: 'a', parent: 'nowhere' }, { id: 'a' }],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', fromPort: 'p', to: 'a' },
      ],
    });
    const failure = await layoutGraph(bad).catch((e: RenderFailure) => e);
    expect(failure).toBeInstanceOf(RenderFailure);
    expect((failure as RenderFailure).details.issues).toEqual(
      expect.arrayContaining([
        { path: '/nodes/0/parent', message: 'no group with id "nowhere"' },
        { path: '/nodes/1/id', message: 'id "a" is used twice' },
        { path: '/edges/0/to', message: 'no node with id "b"' },
        { path: '/edges/1/fromPort', message: 'node "a" has no port "p"' },
      ]),
    );
  });
});
