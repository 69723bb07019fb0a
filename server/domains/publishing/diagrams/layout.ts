/**
 * Node/edge graph → positions and edge routes, with ELK (elkjs). Groups become compound nodes so edges
 * route across them; coordinates come back absolute (ELK's ROOT coordinate mode), offset by the margin and
 * the title block of the SVG they are drawn into.
 */
import elkModule, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import { type Issue, invalid } from '../../../engines/render/render-failure.js';
import { measureText } from '../../../engines/render/text-measure.js';
import type { LayoutRequest, LayoutResult } from './layout-schema.js';
import { type SizedNode, sizeNode } from './node-size.js';

// elkjs is CommonJS with an ESM-style declaration: its constructor is also exported as `default`
const elk = new elkModule.default();
export const MARGIN = 24;
const GROUP_PADDING = '[top=40,left=20,bottom=20,right=20]';
const DIRECTIONS = { right: 'RIGHT', down: 'DOWN', left: 'LEFT', up: 'UP' } as const;
const ALGORITHMS = { layered: 'layered', mrtree: 'mrtree', force: 'force', stress: 'stress' } as const;

export type LaidOut = LayoutResult & { sized: Map<string, SizedNode>; top: number };

export async function layoutGraph(request: LayoutRequest): Promise<LaidOut> {
  checkReferences(request);
  const sized = new Map(request.nodes.map((n) => [n.id, sizeNode(n)]));
  const graph = buildGraph(request, sized);
  const result = await elk.layout(graph);
  const top = MARGIN + (request.title ? 34 : 0) + (request.subtitle ? 22 : 0);
  return { ...extract(result, request, MARGIN, top), sized, top };
}

function buildGraph(request: LayoutRequest, sized: Map<string, SizedNode>): ElkNode {
  const elkNodes = new Map<string, ElkNode>();
  for (const group of request.groups)
    elkNodes.set(group.id, {
      id: group.id,
      children: [],
      layoutOptions: { 'elk.padding': GROUP_PADDING },
      labels: group.label ? [{ text: group.label }] : [],
    });
  for (const node of request.nodes) {
    const { width, height } = sized.get(node.id)!;
    elkNodes.set(node.id, {
      id: node.id,
      width,
      height,
      ports: node.ports?.map((p) => ({
        id: portId(node.id, p.id),
        width: 0,
        height: 0,
        layoutOptions: { 'elk.port.side': p.side.toUpperCase() },
      })),
      layoutOptions: node.ports?.length ? { 'elk.portConstraints': 'FIXED_SIDE' } : {},
    });
  }
  const root: ElkNode = { id: '__root', children: [], layoutOptions: rootOptions(request) };
  for (const item of [...request.groups, ...request.nodes]) {
    const parent = item.parent ? elkNodes.get(item.parent)! : root;
    parent.children!.push(elkNodes.get(item.id)!);
  }
  root.edges = request.edges.map(
    (edge, index): ElkExtendedEdge => ({
      id: edge.id ?? `e${index}`,
      sources: [edge.fromPort ? portId(edge.from, edge.fromPort) : edge.from],
      targets: [edge.toPort ? portId(edge.to, edge.toPort) : edge.to],
      labels: edge.label ? [{ text: edge.label, width: labelWidth(edge.label), height: 16 }] : [],
    }),
  );
  return root;
}

const portId = (node: string, port: string) => `${node}::${port}`;
const labelWidth = (text: string) => Math.ceil(measureText(text, 11) + 12);

function rootOptions(request: LayoutRequest): Record<string, string> {
  return {
    'elk.algorithm': ALGORITHMS[request.algorithm],
    'elk.direction': DIRECTIONS[request.direction],
    'elk.edgeRouting': request.edgeRouting.toUpperCase(),
    ...(request.groups.length ? { 'elk.hierarchyHandling': 'INCLUDE_CHILDREN' } : {}),
    'elk.spacing.nodeNode': String(request.spacing.node),
    'elk.layered.spacing.nodeNodeBetweenLayers': String(request.spacing.layer),
    'elk.spacing.edgeNode': '16',
    'elk.spacing.edgeEdge': '12',
    'elk.spacing.edgeLabel': '4',
    'elk.edgeLabels.placement': 'CENTER',
    'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    // keeping the author's order reads better, but costs seconds on large graphs
    ...(request.nodes.length <= 150 ? { 'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES' } : {}),
    'elk.json.shapeCoords': 'ROOT',
    'elk.json.edgeCoords': 'ROOT',
  };
}

function extract(root: ElkNode, request: LayoutRequest, left: number, top: number): LayoutResult {
  const boxes = new Map<string, { x: number; y: number; width: number; height: number }>();
  const visit = (node: ElkNode) => {
    for (const child of node.children ?? []) {
      boxes.set(child.id, {
        x: child.x! + left,
        y: child.y! + top,
        width: child.width!,
        height: child.height!,
      });
      visit(child);
    }
  };
  visit(root);
  const shift = (p: { x: number; y: number }) => ({ x: p.x + left, y: p.y + top });
  const edges = (root.edges ?? []).map((e, index) => {
    const source = request.edges[index];
    const points = (e.sections ?? []).flatMap((s) =>
      [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].map(shift),
    );
    const label = e.labels?.[0];
    return {
      id: e.id,
      from: source.from,
      to: source.to,
      points,
      ...(label &&
        source.label && {
          label: {
            text: source.label,
            ...shift(label as { x: number; y: number }),
            width: label.width!,
            height: label.height!,
          },
        }),
    };
  });
  const pick = (ids: string[]) => ids.map((id) => ({ id, ...boxes.get(id)! }));
  return {
    width: Math.ceil(root.width! + 2 * left),
    height: Math.ceil(root.height! + top + left),
    nodes: pick(request.nodes.map((n) => n.id)),
    groups: pick(request.groups.map((g) => g.id)),
    edges,
  };
}

/** Every id unique, every reference resolvable, groups not nested in a cycle: else 400 with pointers. */
function checkReferences(request: LayoutRequest): void {
  const issues: Issue[] = [];
  const groups = new Map(request.groups.map((g) => [g.id, g]));
  const nodes = new Map(request.nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const all = [
    ...request.groups.map((g, i) => ({ g, p: `/groups/${i}` })),
    ...request.nodes.map((g, i) => ({ g, p: `/nodes/${i}` })),
  ];
  for (const { g, p } of all) {
    if (seen.has(g.id)) issues.push({ path: `${p}/id`, message: `id "${g.id}" is used twice` });
    seen.add(g.id);
    if (g.parent && !groups.has(g.parent))
      issues.push({ path: `${p}/parent`, message: `no group with id "${g.parent}"` });
  }
  for (const [id] of groups)
    if (nestsInCycle(id, groups)) issues.push({ path: '/groups', message: `group "${id}" contains itself` });
  request.edges.forEach((edge, i) => {
    for (const end of ['from', 'to'] as const) {
      const node = nodes.get(edge[end]);
      const port = end === 'from' ? edge.fromPort : edge.toPort;
      if (!node) issues.push({ path: `/edges/${i}/${end}`, message: `no node with id "${edge[end]}"` });
      else if (port && !node.ports?.some((p) => p.id === port))
        issues.push({ path: `/edges/${i}/${end}Port`, message: `node "${node.id}" has no port "${port}"` });
    }
  });
  if (issues.length) throw invalid(`The graph has ${issues.length} problem(s): ${issues[0].message}`, issues);
}

function nestsInCycle(id: string, groups: Map<string, { parent?: string }>): boolean {
  const visited = new Set<string>();
  for (let at = groups.get(id)?.parent; at; at = groups.get(at)?.parent) {
    if (at === id || visited.has(at)) return true;
    visited.add(at);
  }
  return false;
}
