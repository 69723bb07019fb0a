/**
 * A sanitized diagram as a complete SVG document: the themed stylesheet, the arrowhead markers, a canvas
 * behind the content, and an intrinsic size. `auto` follows the viewer's colour scheme (pages, /d/:slug.svg);
 * `light` and `dark` are fixed, for PNGs.
 */
import { type Box, escapeAttribute, escapeText } from '../../../engines/render/svg/sanitize-svg.js';
import { markerDefs, servedStylesheet, type ThemeName, themeRules } from './theme.js';

export type DiagramTheme = ThemeName | 'auto';
/** `css`: the text of the <style> in `svg`, for a page's CSP hashes. */
export type DiagramDocument = { svg: string; width: number; height: number; css: string };

export function diagramDocument(
  content: string,
  box: Box,
  { theme = 'auto', title }: { theme?: DiagramTheme; title?: string } = {},
): DiagramDocument {
  const css = theme === 'auto' ? servedStylesheet() : themeRules(theme);
  const width = round(box.width);
  const height = round(box.height);
  const label = title ? ` aria-label="${escapeAttribute(title)}"` : '';
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.x} ${box.y} ${box.width} ${box.height}" width="${width}" height="${height}" role="img"${label}>`,
    title ? `<title>${escapeText(title)}</title>` : '',
    `<style>${escapeText(css)}</style>`,
    `<defs>${markerDefs()}</defs>`,
    `<rect class="fo-canvas" x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}"/>`,
    content,
    '</svg>',
  ].join('');
  return { svg, width, height, css };
}

const round = (n: number) => Math.max(1, Math.round(n * 100) / 100);

/** Bare elements get a viewBox around what they draw, with a margin. */
export function padBox(bbox: Box, margin = 16): Box {
  return {
    x: Math.floor(bbox.x - margin),
    y: Math.floor(bbox.y - margin),
    width: Math.ceil(bbox.width + 2 * margin),
    height: Math.ceil(bbox.height + 2 * margin),
  };
}
