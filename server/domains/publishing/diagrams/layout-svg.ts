/**
 * A laid-out graph drawn as SVG in the vocabulary (no theme inside: the server adds it when serving), so
 * the answer of POST /layout with format "svg" can be published as is.
 */

import { escapeAttribute as attr, escapeText as text } from '../../../engines/render/svg/sanitize-svg.js';
import type { LaidOut } from './layout.js';
import type { LayoutEdge, LayoutNode, LayoutRequest } from './layout-schema.js';
import { LINE_HEIGHT } from './node-size.js';

type Rect = { x: number; y: number; width: number; height: number };
type Point = { x: number; y: number };

export function layoutSvg(request: LayoutRequest, laid: LaidOut): string {
  const nodeById = new Map(request.nodes.map((n) => [n.id, n]));
  const groupById = new Map(request.groups.map((g) => [g.id, g]));
  const depth = (id?: string): number => (id ? 1 + depth(groupById.get(id)?.parent) : 0);
  const groups = [...laid.groups].sort(
    (a, b) => depth(groupById.get(a.id)?.parent) - depth(groupById.get(b.id)?.parent),
  );
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${laid.width} ${laid.height}" width="${laid.width}" height="${laid.height}">`,
    request.title ? `<text class="title" x="24" y="${24 + 16}">${text(request.title)}</text>` : '',
    request.subtitle
      ? `<text class="subtitle" x="24" y="${request.title ? 64 : 40}">${text(request.subtitle)}</text>`
      : '',
    ...groups.map((g) => drawGroup(g, groupById.get(g.id)!)),
    ...laid.edges.map((e, i) => {
      const edge = request.edges[i];
      const points = snapToDiamonds(e.points, laid.nodes, nodeById, edge);
      return drawEdge(points, edge, request.edgeRouting);
    }),
    ...laid.nodes.map((n) => drawNode(n, nodeById.get(n.id)!, laid)),
    ...laid.edges.map((e) => (e.label ? drawEdgeLabel(e.label) : '')),
    '</svg>',
  ];
  return parts.filter(Boolean).join('\n');
}

const toned = (tone: string | undefined, body: string) => (tone ? `<g class="${tone}">${body}</g>` : body);
const n = (v: number) => Math.round(v * 10) / 10;

function drawGroup(box: Rect, group: { label?: string; tone?: string }): string {
  const label = group.label
    ? `<text class="group-label" x="${n(box.x + 14)}" y="${n(box.y + 22)}">${text(group.label)}</text>`
    : '';
  return toned(
    group.tone,
    `<rect class="group" x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" rx="12"/>${label}`,
  );
}

function drawNode(box: Rect, node: LayoutNode, laid: LaidOut): string {
  const sized = laid.sized.get(node.id)!;
  const shape = shapeFor(node.shape, box);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2 + (node.shape === 'store' ? 6 : 0);
  const block = sized.lines.length * LINE_HEIGHT + (sized.sublabel ? 15 : 0);
  const first = cy - block / 2 + LINE_HEIGHT / 2;
  const lines = sized.lines.map(
    (line, i) => `<text class="label" x="${n(cx)}" y="${n(first + i * LINE_HEIGHT)}">${text(line)}</text>`,
  );
  const sub = sized.sublabel
    ? `<text class="sublabel" x="${n(cx)}" y="${n(first + sized.lines.length * LINE_HEIGHT - 1)}">${text(sized.sublabel)}</text>`
    : '';
  return toned(node.tone, `<g>${shape}${lines.join('')}${sub}</g>`);
}

function shapeFor(shape: LayoutNode['shape'], { x, y, width: w, height: h }: Rect): string {
  const at = `x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}"`;
  switch (shape) {
    case 'terminal':
      return `<rect class="terminal" ${at} rx="${n(h / 2)}"/>`;
    case 'decision':
      return `<polygon class="decision" points="${n(x + w / 2)},${n(y)} ${n(x + w)},${n(y + h / 2)} ${n(x + w / 2)},${n(y + h)} ${n(x)},${n(y + h / 2)}"/>`;
    case 'store': {
      const ry = 8;
      return `<path class="store" d="M${n(x)},${n(y + ry)} a${n(w / 2)},${ry} 0 0 0 ${n(w)},0 a${n(w / 2)},${ry} 0 0 0 ${n(-w)},0 v${n(h - 2 * ry)} a${n(w / 2)},${ry} 0 0 0 ${n(w)},0 v${n(-(h - 2 * ry))}"/>`;
    }
    case 'note': {
      const f = 12;
      return `<path class="note" d="M${n(x)},${n(y)} h${n(w - f)} l${f},${f} v${n(h - f)} h${n(-w)} z"/>`;
    }
    case 'state':
      return `<rect class="state" ${at} rx="14"/>`;
    case 'actor':
      return `<rect class="actor" ${at} rx="${n(h / 2)}"/>`;
    default:
      return `<rect class="node" ${at} rx="8"/>`;
  }
}

function drawEdge(points: Point[], edge: LayoutEdge, routing: LayoutRequest['edgeRouting']): string {
  if (points.length < 2) return '';
  const classes = ['edge'];
  if (edge.head !== 'arrow') classes.push(`head-${edge.head}`);
  if (edge.tail !== 'none') classes.push(`tail-${edge.tail}`);
  if (edge.line !== 'solid') classes.push(edge.line);
  if (edge.tone) classes.push(edge.tone);
  const d =
    routing === 'splines' ? splinePath(points) : roundedPath(points, routing === 'orthogonal' ? 8 : 0);
  return `<path class="${classes.join(' ')}" d="${attr(d)}"/>`;
}

function drawEdgeLabel(label: Rect & { text: string }): string {
  return `<text class="edge-label" x="${n(label.x + label.width / 2)}" y="${n(label.y + label.height / 2)}">${text(label.text)}</text>`;
}

/** Straight segments with each bend rounded by a quadratic curve of `radius` (clamped to half a segment). */
export function roundedPath(points: Point[], radius: number): string {
  let d = `M${n(points[0].x)},${n(points[0].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [prev, at, next] = [points[i - 1], points[i], points[i + 1]];
    const r = Math.min(radius, dist(prev, at) / 2, dist(at, next) / 2);
    const a = toward(at, prev, r);
    const b = toward(at, next, r);
    d +=
      r > 0 ? ` L${n(a.x)},${n(a.y)} Q${n(at.x)},${n(at.y)} ${n(b.x)},${n(b.y)}` : ` L${n(at.x)},${n(at.y)}`;
  }
  const last = points[points.length - 1];
  return `${d} L${n(last.x)},${n(last.y)}`;
}

/** ELK's spline routes: start point, then cubic control points in threes. */
function splinePath(points: Point[]): string {
  let d = `M${n(points[0].x)},${n(points[0].y)}`;
  let i = 1;
  for (; i + 2 < points.length; i += 3)
    d += ` C${[points[i], points[i + 1], points[i + 2]].map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}`;
  for (; i < points.length; i++) d += ` L${n(points[i].x)},${n(points[i].y)}`;
  return d;
}

/** ELK attaches edges to a node's bounding box; a diamond's border is inside it, so move the ends onto it. */
function snapToDiamonds(
  points: Point[],
  boxes: (Rect & { id: string })[],
  nodes: Map<string, LayoutNode>,
  edge: LayoutEdge,
) {
  const snapped = points.map((p) => ({ ...p }));
  const ends = [
    { id: edge.from, at: 0 },
    { id: edge.to, at: snapped.length - 1 },
  ];
  for (const { id, at } of ends) {
    if (nodes.get(id)?.shape !== 'decision' || snapped.length < 2) continue;
    const box = boxes.find((b) => b.id === id)!;
    const p = snapped[at];
    const [cx, cy, hw, hh] = [box.x + box.width / 2, box.y + box.height / 2, box.width / 2, box.height / 2];
    if (Math.abs(p.x - box.x) < 0.5 || Math.abs(p.x - box.x - box.width) < 0.5)
      p.x = cx + Math.sign(p.x - cx) * hw * Math.max(0, 1 - Math.abs(p.y - cy) / hh);
    else p.y = cy + Math.sign(p.y - cy) * hh * Math.max(0, 1 - Math.abs(p.x - cx) / hw);
  }
  return snapped;
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
function toward(from: Point, to: Point, length: number): Point {
  const d = dist(from, to) || 1;
  return { x: from.x + ((to.x - from.x) * length) / d, y: from.y + ((to.y - from.y) * length) / d };
}
