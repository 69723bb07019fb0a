/**
 * The diagram pipeline, run in a render worker: sanitize → fit the viewBox → themed SVG and/or PNG.
 * Pure (no store, no HTTP); render-tasks.ts exposes it to the pool.
 */
import { Resvg } from '@resvg/resvg-js';
import { type RasterOptions, RESVG_FONT, rasterize } from '../../../engines/render/rasterize.js';
import { type Issue, invalid } from '../../../engines/render/render-failure.js';
import { type Box, sanitizeSvg } from '../../../engines/render/svg/sanitize-svg.js';
import { type DiagramTheme, diagramDocument, padBox } from './diagram-document.js';
import { THEMES, themeRules } from './theme.js';
import { KNOWN_CLASSES } from './vocabulary.js';

export type DiagramRenderInput = {
  svg: string;
  title?: string;
  /** Which outputs to produce besides the checked document. */
  svgTheme?: DiagramTheme;
  png?: RasterOptions & { theme?: 'light' | 'dark' };
};

export type DiagramRenderOutput = {
  /** The checked vocabulary SVG (no theme), what is stored and returned by the API. */
  document: string;
  box: Box;
  warnings: Issue[];
  svg?: string;
  /** The text of every <style> in `svg` (the theme's and the author's), for a page's CSP hashes. */
  styles?: string[];
  png?: { bytes: Uint8Array; width: number; height: number };
};

export function renderDiagram(input: DiagramRenderInput): DiagramRenderOutput {
  const sanitized = sanitizeSvg(input.svg, { knownClasses: KNOWN_CLASSES });
  const box = sanitized.viewBox ?? fitBox(sanitized.content);
  const document = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.x} ${box.y} ${box.width} ${box.height}">${sanitized.content}</svg>`;
  const output: DiagramRenderOutput = { document, box, warnings: sanitized.warnings };
  if (input.svgTheme) {
    const served = diagramDocument(sanitized.content, box, { theme: input.svgTheme, title: input.title });
    output.svg = served.svg;
    output.styles = [served.css, ...sanitized.styles];
  }
  if (input.png) {
    const theme = input.png.theme ?? 'light';
    const themed = diagramDocument(sanitized.content, box, { theme, title: input.title });
    const raster = rasterize(themed.svg, themed, { background: THEMES[theme].canvas, ...input.png });
    output.png = { bytes: raster.png, width: raster.width, height: raster.height };
  }
  return output;
}

/** Bare elements: measure what they draw (resvg's bounding box, text included) and add a margin. */
function fitBox(content: string): Box {
  const probe = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><style>${themeRules('light')}</style>${content}</svg>`;
  const bbox = new Resvg(probe, { font: RESVG_FONT }).getBBox();
  if (!bbox || !(bbox.width > 0 || bbox.height > 0))
    throw invalid('The diagram draws nothing visible', [
      { path: '/svg', message: 'no visible shapes or text' },
    ]);
  return padBox({ x: bbox.x, y: bbox.y, width: bbox.width, height: bbox.height });
}
