/**
 * The diagram vocabulary: the classes an agent writes on SVG elements, each rendered by theme.ts. Served by
 * GET /api/v1/diagrams/vocabulary and used by the sanitizer to warn about unknown classes.
 */
import { HEADS, TONES } from './theme.js';

export type VocabularyEntry = { name: string; appliesTo: string; description: string; example: string };

const HEAD_WORDS: Record<(typeof HEADS)[number], string> = {
  arrow: 'a filled arrowhead',
  open: 'an open arrowhead (async message, reply)',
  dot: 'a dot',
  crow: "a crow's foot (many, in entity relationships)",
};

const TONE_WORDS: Record<(typeof TONES)[number], string> = {
  emphasis: 'Draw the eye: the accent colour and a heavier outline.',
  ok: 'Healthy, done, success (green).',
  warn: 'Degraded, at risk, needs attention (amber).',
  error: 'Failing, blocked, broken (red).',
  muted: 'Secondary, out of scope, deprecated (faded).',
};

export const SHAPES: VocabularyEntry[] = [
  {
    name: 'node',
    appliesTo: 'rect, circle, ellipse, polygon, path',
    description: 'A box: a step, service or component. Rounded rects (rx="8") read best.',
    example: '<rect class="node" x="0" y="0" width="160" height="56" rx="8"/>',
  },
  {
    name: 'terminal',
    appliesTo: 'rect',
    description: 'Start or end of a flow: a pill (rx = half the height).',
    example: '<rect class="terminal" x="0" y="0" width="120" height="40" rx="20"/>',
  },
  {
    name: 'decision',
    appliesTo: 'polygon, path',
    description: 'A branch point: a diamond.',
    example: '<polygon class="decision" points="80,0 160,40 80,80 0,40"/>',
  },
  {
    name: 'store',
    appliesTo: 'path, rect',
    description: 'A database or queue: a cylinder drawn as a path.',
    example:
      '<path class="store" d="M0,10 a70,10 0 0 0 140,0 a70,10 0 0 0 -140,0 v50 a70,10 0 0 0 140,0 v-50"/>',
  },
  {
    name: 'actor',
    appliesTo: 'rect, circle, path',
    description: 'A person or external system outside the boundary.',
    example: '<circle class="actor" cx="20" cy="20" r="20"/>',
  },
  {
    name: 'state',
    appliesTo: 'rect, circle',
    description: 'A state in a state machine (rounded rect); a small filled circle marks the initial state.',
    example: '<rect class="state" x="0" y="0" width="140" height="48" rx="14"/>',
  },
  {
    name: 'entity',
    appliesTo: 'rect',
    description:
      'An entity table in an entity-relationship diagram; pair with entity-header for its name row.',
    example: '<rect class="entity" x="0" y="0" width="180" height="120" rx="6"/>',
  },
  {
    name: 'entity-header',
    appliesTo: 'rect',
    description: 'The name row of an entity table.',
    example: '<rect class="entity-header" x="0" y="0" width="180" height="32" rx="6"/>',
  },
  {
    name: 'note',
    appliesTo: 'rect, path',
    description: 'An annotation: a sticky note beside the diagram.',
    example: '<rect class="note" x="0" y="0" width="180" height="60" rx="4"/>',
  },
  {
    name: 'lifeline',
    appliesTo: 'line, path',
    description: 'The vertical dashed line under a participant in a sequence diagram.',
    example: '<line class="lifeline" x1="80" y1="40" x2="80" y2="400"/>',
  },
  {
    name: 'activation',
    appliesTo: 'rect',
    description: 'The narrow bar on a lifeline while a participant is busy.',
    example: '<rect class="activation" x="74" y="120" width="12" height="80"/>',
  },
  {
    name: 'axis',
    appliesTo: 'line, path',
    description: 'The time axis of a timeline.',
    example: '<line class="axis" x1="0" y1="60" x2="800" y2="60"/>',
  },
  {
    name: 'marker',
    appliesTo: 'circle',
    description: 'An event point on a timeline axis.',
    example: '<circle class="marker" cx="120" cy="60" r="6"/>',
  },
];

export const EDGES: VocabularyEntry[] = [
  {
    name: 'edge',
    appliesTo: 'path, line, polyline',
    description:
      'A directed connection; ends in an arrowhead. Draw it from the source border to the target border.',
    example: '<path class="edge" d="M160,28 L240,28"/>',
  },
  {
    name: 'link',
    appliesTo: 'path, line, polyline',
    description: 'An undirected connection, no arrowheads (associations, entity relationships).',
    example: '<path class="link" d="M160,28 L240,28"/>',
  },
  ...HEADS.map((head) => ({
    name: `head-${head}`,
    appliesTo: 'edge, link',
    description: `End with ${HEAD_WORDS[head]} (edges end in an arrow unless told otherwise).`,
    example: `<path class="edge head-${head}" d="M0,0 L120,0"/>`,
  })),
  {
    name: 'head-none',
    appliesTo: 'edge',
    description: 'No arrowhead at the end.',
    example: '<path class="edge head-none" d="M0,0 L120,0"/>',
  },
  ...HEADS.map((head) => ({
    name: `tail-${head}`,
    appliesTo: 'edge, link',
    description: `Start with ${HEAD_WORDS[head]} (for two-way edges use tail-arrow).`,
    example: `<path class="edge tail-${head}" d="M0,0 L120,0"/>`,
  })),
];

export const GROUPS: VocabularyEntry[] = [
  {
    name: 'group',
    appliesTo: 'rect',
    description:
      'A container behind related nodes (a subsystem, a boundary). Draw it first so nodes sit on top.',
    example: '<rect class="group" x="0" y="0" width="400" height="240" rx="12"/>',
  },
  {
    name: 'lane',
    appliesTo: 'rect',
    description: 'A swimlane band; alternate lanes with and without it.',
    example: '<rect class="lane" x="0" y="0" width="900" height="120"/>',
  },
];

export const MODIFIERS: VocabularyEntry[] = [
  ...TONES.map((tone) => ({
    name: tone,
    appliesTo: 'any shape, edge or text, or a <g> around them',
    description: TONE_WORDS[tone],
    example: `<g class="${tone}"><rect class="node" width="140" height="48" rx="8"/><text class="label" x="70" y="24">${tone}</text></g>`,
  })),
  {
    name: 'dashed',
    appliesTo: 'shapes and edges',
    description: 'Dashed outline or line: optional, planned, asynchronous.',
    example: '<path class="edge dashed" d="M0,0 L120,0"/>',
  },
  {
    name: 'dotted',
    appliesTo: 'shapes and edges',
    description: 'Dotted outline or line: weak or inferred relation.',
    example: '<path class="link dotted" d="M0,0 L120,0"/>',
  },
  {
    name: 'thick',
    appliesTo: 'shapes and edges',
    description: 'A heavier stroke for the main path.',
    example: '<path class="edge thick" d="M0,0 L120,0"/>',
  },
];

export const TYPOGRAPHY: VocabularyEntry[] = [
  {
    name: 'title',
    appliesTo: 'text',
    description: 'The diagram title, 18 px bold, top left.',
    example: '<text class="title" x="0" y="20">Checkout flow</text>',
  },
  {
    name: 'subtitle',
    appliesTo: 'text',
    description: 'One line under the title.',
    example: '<text class="subtitle" x="0" y="42">Happy path, Q3</text>',
  },
  {
    name: 'label',
    appliesTo: 'text',
    description: 'A node label, 13 px, centred on (x, y): put x, y at the centre of the shape.',
    example: '<text class="label" x="80" y="28">API gateway</text>',
  },
  {
    name: 'sublabel',
    appliesTo: 'text',
    description: 'A second, quieter line inside a node, 11 px, centred.',
    example: '<text class="sublabel" x="80" y="40">Koa, port 4780</text>',
  },
  {
    name: 'edge-label',
    appliesTo: 'text',
    description: 'Text on an edge, centred, with a halo so it stays readable over lines.',
    example: '<text class="edge-label" x="200" y="28">HTTPS</text>',
  },
  {
    name: 'group-label',
    appliesTo: 'text',
    description: 'The name of a group, small caps weight, top left inside the group.',
    example: '<text class="group-label" x="12" y="20">BACKEND</text>',
  },
  {
    name: 'lane-label',
    appliesTo: 'text',
    description: 'The name of a swimlane.',
    example: '<text class="lane-label" x="12" y="20">Customer</text>',
  },
  {
    name: 'caption',
    appliesTo: 'text',
    description: 'Small explanatory text (legends, footnotes, timeline dates).',
    example: '<text class="caption" x="0" y="300">Times in UTC</text>',
  },
  {
    name: 'note-text',
    appliesTo: 'text',
    description: 'Text inside a note.',
    example: '<text class="note-text" x="12" y="24">Retries 3×</text>',
  },
  {
    name: 'mono',
    appliesTo: 'text, tspan',
    description: 'Monospace, for identifiers, fields and code.',
    example: '<tspan class="mono">user_id</tspan>',
  },
];

export const DIAGRAM_KINDS = [
  'flowchart',
  'sequence',
  'architecture',
  'state',
  'entity-relationship',
  'timeline',
  'mindmap',
  'network',
  'org-chart',
  'other',
] as const;

/** Every class name the stylesheet knows, for the sanitizer's unknown-class warnings. */
export const KNOWN_CLASSES = new Set(
  [...SHAPES, ...EDGES, ...GROUPS, ...MODIFIERS, ...TYPOGRAPHY].map((entry) => entry.name),
);

export const EXAMPLE_DIAGRAM = `<svg viewBox="0 0 420 120">
  <text class="title" x="0" y="18">Upload flow</text>
  <rect class="node" x="0" y="40" width="140" height="56" rx="8"/>
  <text class="label" x="70" y="68">Browser</text>
  <path class="edge" d="M140,68 L270,68"/>
  <text class="edge-label" x="205" y="68">grant</text>
  <g class="ok"><rect class="node" x="270" y="40" width="150" height="56" rx="8"/>
  <text class="label" x="345" y="62">Folio</text><text class="sublabel" x="345" y="80">/uploads/client</text></g>
</svg>`;

export function vocabulary() {
  return {
    shapes: SHAPES,
    edges: EDGES,
    groups: GROUPS,
    modifiers: MODIFIERS,
    typography: TYPOGRAPHY,
    kinds: [...DIAGRAM_KINDS],
    rules: [
      'Write an <svg viewBox="..."> (or bare elements: the server then fits the viewBox to them).',
      'Style with these classes; the server adds a light and dark theme. Avoid hard-coded colours so both themes work.',
      'Allowed: shapes, paths, text, groups, defs, gradients, clip paths, markers, <a href="https://...">, style attributes and <style> with url(#id) references only.',
      'Refused with 400: <script>, event handlers (on*), <foreignObject>, <image>, animation, javascript: or external URLs, DOCTYPE/entities.',
      'Or skip drawing: POST /api/v1/diagrams/layout with nodes and edges and format "svg" returns a laid-out SVG in this vocabulary.',
    ],
    example: EXAMPLE_DIAGRAM,
  };
}
