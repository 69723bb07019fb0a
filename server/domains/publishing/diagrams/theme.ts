/**
 * The diagram theme: colour tokens for light and dark, and the stylesheet the vocabulary classes resolve to.
 * Rules are written with concrete colours (no custom properties, no media queries inside a theme) because
 * resvg, which rasterizes the PNGs, supports neither; a page gets both themes via prefers-color-scheme.
 */
import { FONT_STACK, MONO_STACK } from '../../../engines/render/fonts.js';

export type ThemeName = 'light' | 'dark';
export const TONES = ['emphasis', 'ok', 'warn', 'error', 'muted'] as const;
export type Tone = (typeof TONES)[number];

type Swatch = { fill: string; stroke: string; text: string };
type Theme = {
  canvas: string;
  text: string;
  subtle: string;
  node: Swatch;
  group: { fill: string; stroke: string; text: string };
  lane: string;
  edge: string;
  note: Swatch;
  tones: Record<Tone, Swatch>;
};

// Radix Colors steps (slate, indigo, grass, amber, red): 2–3 for fills, 8–9 for strokes, 11–12 for text.
export const THEMES: Record<ThemeName, Theme> = {
  light: {
    canvas: '#ffffff',
    text: '#1c2024',
    subtle: '#60646c',
    node: { fill: '#fcfcfd', stroke: '#b9bbc6', text: '#1c2024' },
    group: { fill: '#f9f9fb', stroke: '#dddde3', text: '#60646c' },
    lane: '#f0f0f3',
    edge: '#80838d',
    note: { fill: '#fffbd1', stroke: '#e9c162', text: '#4f3422' },
    tones: {
      emphasis: { fill: '#edf2fe', stroke: '#3e63dd', text: '#1f2d5c' },
      ok: { fill: '#e9f6e9', stroke: '#46a758', text: '#203c25' },
      warn: { fill: '#fff7c2', stroke: '#e2a336', text: '#4f3422' },
      error: { fill: '#feebec', stroke: '#e5484d', text: '#641723' },
      muted: { fill: '#f9f9fb', stroke: '#e0e1e6', text: '#8b8d98' },
    },
  },
  dark: {
    canvas: '#111113',
    text: '#edeef0',
    subtle: '#b0b4ba',
    node: { fill: '#18191b', stroke: '#5a6169', text: '#edeef0' },
    group: { fill: '#151618', stroke: '#363a3f', text: '#b0b4ba' },
    lane: '#1a1b1e',
    edge: '#777b84',
    note: { fill: '#2a200d', stroke: '#8f6424', text: '#ffe7b3' },
    tones: {
      emphasis: { fill: '#182449', stroke: '#5472e4', text: '#d6e1ff' },
      ok: { fill: '#1b2a1e', stroke: '#46a758', text: '#c2f0c2' },
      warn: { fill: '#302008', stroke: '#ffc53d', text: '#ffe7b3' },
      error: { fill: '#3b1219', stroke: '#e5484d', text: '#ffd1d9' },
      muted: { fill: '#18191b', stroke: '#2e3135', text: '#6c6e79' },
    },
  },
};

export const HEADS = ['arrow', 'open', 'dot', 'crow'] as const;
export type Head = (typeof HEADS)[number];

const SHAPES = '.node, .terminal, .decision, .store, .actor, .state, .entity, .activation';
const TEXTS =
  '.note-text, .label, .sublabel, .title, .subtitle, .caption, .mono, .edge-label, .group-label, .lane-label';

/** Concrete CSS for one theme: every vocabulary class, modifier and typography role. */
export function themeRules(name: ThemeName): string {
  const t = THEMES[name];
  const rules = [
    `.fo-canvas { fill: ${t.canvas}; stroke: none; }`,
    `text { font-family: ${FONT_STACK}; font-size: 13px; fill: ${t.text}; }`,
    `${SHAPES} { fill: ${t.node.fill}; stroke: ${t.node.stroke}; stroke-width: 1.25px; }`,
    `.terminal { fill: ${t.group.fill}; }`,
    `.entity-header { fill: ${t.tones.emphasis.fill}; stroke: ${t.tones.emphasis.stroke}; stroke-width: 1.25px; }`,
    `.note { fill: ${t.note.fill}; stroke: ${t.note.stroke}; stroke-width: 1px; }`,
    `.group { fill: ${t.group.fill}; stroke: ${t.group.stroke}; stroke-width: 1px; }`,
    `.lane { fill: ${t.lane}; stroke: none; }`,
    `.lifeline { stroke: ${t.edge}; stroke-width: 1px; stroke-dasharray: 4 4; fill: none; }`,
    `.axis { stroke: ${t.group.stroke}; stroke-width: 2px; fill: none; }`,
    `.marker { fill: ${t.tones.emphasis.stroke}; stroke: ${t.canvas}; stroke-width: 2px; }`,
    `.edge, .link { fill: none; stroke: ${t.edge}; stroke-width: 1.5px; stroke-linejoin: round; stroke-linecap: round; }`,
    ...edgeMarkerRules(),
    ...markerRules(t),
    `.label { font-size: 13px; text-anchor: middle; dominant-baseline: central; fill: ${t.node.text}; }`,
    `.sublabel { font-size: 11px; text-anchor: middle; dominant-baseline: central; fill: ${t.subtle}; }`,
    `.title { font-size: 18px; font-weight: bold; fill: ${t.text}; }`,
    `.subtitle { font-size: 13px; fill: ${t.subtle}; }`,
    `.caption { font-size: 11px; fill: ${t.subtle}; }`,
    `.mono { font-family: ${MONO_STACK}; font-size: 12px; }`,
    `.edge-label { font-size: 11px; text-anchor: middle; dominant-baseline: central; fill: ${t.subtle}; paint-order: stroke; stroke: ${t.canvas}; stroke-width: 4px; stroke-linejoin: round; }`,
    `.group-label, .lane-label { font-size: 11px; font-weight: bold; letter-spacing: 0.04em; fill: ${t.group.text}; }`,
    `.note-text { font-size: 12px; fill: ${t.note.text}; }`,
    ...TONES.flatMap((tone) => toneRules(t, tone)),
    `.dashed { stroke-dasharray: 6 4; }`,
    `.dotted { stroke-dasharray: 1.5 3.5; stroke-linecap: round; }`,
    `.thick { stroke-width: 2.5px; }`,
  ];
  return rules.join('\n');
}

/** A modifier on the shape itself or on a <g> around it (`<g class="error">…</g>`). */
function toneRules(t: Theme, tone: Tone): string[] {
  const s = t.tones[tone];
  const on = (classes: string) =>
    classes
      .split(', ')
      .flatMap((c) => [`.${tone}${c}`, `.${tone} ${c}`])
      .join(', ');
  const muted = tone === 'muted';
  return [
    `${on(SHAPES)}, ${on('.group')}, ${on('.note')} { fill: ${s.fill}; stroke: ${s.stroke};${tone === 'emphasis' ? ' stroke-width: 2px;' : ''} }`,
    `${on('.edge, .link')} { stroke: ${muted ? t.tones.muted.stroke : s.stroke}; }`,
    `${on(TEXTS)} { fill: ${s.text}; }`,
    ...(tone === 'emphasis' ? [`${on('.label')} { font-weight: bold; }`] : []),
  ];
}

/** Which marker each edge gets: `.edge` ends in an arrow; `head-*` and `tail-*` change the ends; tones recolour them. */
function edgeMarkerRules(): string[] {
  const rules: string[] = [];
  for (const tone of ['', ...TONES]) {
    const toned = tone ? `.${tone}` : '';
    const inG = tone ? `.${tone} ` : '';
    const suffix = tone ? `-${tone}` : '';
    for (const head of HEADS) {
      const headClass = head === 'arrow' ? '' : `.head-${head}`;
      rules.push(
        `.edge${headClass}${toned}, ${inG}.edge${headClass} { marker-end: url(#fo-${head}${suffix}); }`,
        `.edge.tail-${head}${toned}, ${inG}.edge.tail-${head}, .link.tail-${head}${toned}, ${inG}.link.tail-${head} { marker-start: url(#fo-${head}-start${suffix}); }`,
        `.link.head-${head}${toned}, ${inG}.link.head-${head} { marker-end: url(#fo-${head}${suffix}); }`,
      );
    }
  }
  rules.push('.edge.head-none, .link { marker-end: none; }');
  return rules;
}

/** <marker> definitions for every head, at both ends, in every tone; theme colours come from the stylesheet. */
export function markerDefs(): string {
  const out: string[] = [];
  for (const tone of ['', ...TONES] as const) {
    const suffix = tone ? `-${tone}` : '';
    for (const head of HEADS) {
      out.push(marker(`fo-${head}${suffix}`, head, tone || 'plain', false));
      out.push(marker(`fo-${head}-start${suffix}`, head, tone || 'plain', true));
    }
  }
  return out.join('');
}

const HEAD_PATHS: Record<Head, { d: string; paint: 'solid' | 'open' | 'line' }> = {
  arrow: { d: 'M1,1 L11,6 L1,11 Z', paint: 'solid' },
  open: { d: 'M1,1 L11,6 L1,11', paint: 'open' },
  dot: { d: 'M6,2.5 A3.5,3.5 0 1 1 5.99,2.5 Z', paint: 'solid' },
  crow: { d: 'M11,1 L1,6 L11,11 M1,6 L11,6 M1,1 L1,11', paint: 'line' },
};

function marker(id: string, head: Head, tone: string, start: boolean): string {
  const { d, paint } = HEAD_PATHS[head];
  // resvg ignores orient="auto-start-reverse", so start markers are drawn mirrored instead
  const transform = start ? ' transform="translate(12,0) scale(-1,1)"' : '';
  const refX = head === 'dot' ? 6 : start ? 1 : 11;
  return `<marker id="${id}" viewBox="0 0 12 12" refX="${refX}" refY="6" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path class="fo-mark fo-mark-${paint} fo-mark-${tone}" d="${d}"${transform}/></marker>`;
}

function markerRules(t: Theme): string[] {
  const colour = (tone: string) =>
    tone === 'plain' ? t.edge : tone === 'muted' ? t.tones.muted.stroke : t.tones[tone as Tone].stroke;
  return [
    '.fo-mark { stroke-width: 1.5px; stroke-linejoin: round; stroke-linecap: round; }',
    `.fo-mark-open { fill: ${t.canvas}; }`,
    '.fo-mark-line { fill: none; }',
    ...['plain', ...TONES].map(
      (tone) =>
        `.fo-mark-${tone} { stroke: ${colour(tone)}; } .fo-mark-solid.fo-mark-${tone} { fill: ${colour(tone)}; }`,
    ),
  ];
}

/** The stylesheet a served SVG carries: light by default, dark where the viewer prefers it. */
export function servedStylesheet(): string {
  return `${themeRules('light')}\n@media (prefers-color-scheme: dark) {\n${themeRules('dark')}\n}`;
}
