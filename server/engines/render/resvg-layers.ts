/**
 * resvg as shipped in @resvg/resvg-js 2.6.2 panics, and so aborts its process, on a layer that lies wholly
 * outside the canvas: `fit_to_rect` in its geom.rs unwraps an empty rectangle (fixed upstream after that
 * release). Vega makes layers of every translucent mark (`opacity`) and of every clipped group, and charts with
 * a projection, a zoom or a narrow domain draw marks off the canvas. Two rewrites keep every layer on it:
 * a shape's own `opacity` becomes its fill and stroke opacity (the same picture but where its stroke overlaps
 * its fill), and a clipped or translucent group gets an invisible 1×1 rectangle at its origin.
 * A render process that still meets the panic answers 422 and is replaced (render-pool.ts).
 */
const SHAPE = /<(path|circle|ellipse|rect|line|polyline|polygon|text)\b([^>]*?)(\/?)>/g;
const LAYERED_GROUP = /<g\b[^>]*?\s(?:clip-path|opacity|mask|filter)="[^"]*"[^>]*>/g;
const OPACITY = /\sopacity="([^"]*)"/;
const ANCHOR = '<rect width="1" height="1" fill="#000" fill-opacity="0"/>';

export function withLayersOnCanvas(svg: string): string {
  return svg.replace(SHAPE, withPaintOpacity).replace(LAYERED_GROUP, (tag) => `${tag}${ANCHOR}`);
}

function withPaintOpacity(tag: string, name: string, attributes: string, selfClosing: string): string {
  const own = OPACITY.exec(attributes);
  if (!own) return tag;
  const opacity = Number(own[1]);
  if (!Number.isFinite(opacity)) return tag;
  let rest = attributes.replace(OPACITY, '');
  for (const paint of ['fill-opacity', 'stroke-opacity']) {
    const existing = new RegExp(`\\s${paint}="([^"]*)"`).exec(rest);
    const value = clamp((existing ? Number(existing[1]) : 1) * opacity);
    rest = existing ? rest.replace(existing[0], ` ${paint}="${value}"`) : `${rest} ${paint}="${value}"`;
  }
  return `<${name}${rest}${selfClosing}>`;
}

const clamp = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1);
