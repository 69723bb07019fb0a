/** SVG → PNG with resvg and the shipped fonts only (no system fonts): deterministic across machines. */
import { Resvg } from '@resvg/resvg-js';
import { FONT_FILES } from './fonts.js';
import { tooLarge, unrenderable } from './render-failure.js';
import { withLayersOnCanvas } from './resvg-layers.js';

export const MAX_PNG_PIXELS = 4096 * 4096;

export type RasterOptions = {
  /** Multiplier on the SVG's own size (default 2, for sharp text on high-density screens). */
  scale?: number;
  /** Fit this width instead of scaling; the height follows the aspect ratio. */
  width?: number;
  background?: string;
  /** Shrink to fit MAX_PNG_PIXELS instead of refusing (the page routes: a link must always unfurl). */
  fit?: boolean;
};

export type Raster = { png: Uint8Array; width: number; height: number };

export const RESVG_FONT = {
  loadSystemFonts: false,
  fontFiles: FONT_FILES,
  defaultFontFamily: 'DejaVu Sans',
  sansSerifFamily: 'DejaVu Sans',
  serifFamily: 'DejaVu Sans',
  monospaceFamily: 'DejaVu Sans Mono',
};

/** `size` is the SVG's own width and height (the caller built the SVG, so it knows them). */
export function rasterize(svg: string, size: { width: number; height: number }, options: RasterOptions = {}) {
  const zoom = zoomFor(size.width, size.height, options);
  let rendered: ReturnType<Resvg['render']>;
  try {
    rendered = new Resvg(withLayersOnCanvas(svg), {
      font: RESVG_FONT,
      logLevel: 'off',
      fitTo: { mode: 'zoom', value: zoom },
      ...(options.background && { background: options.background }),
    }).render();
  } catch (error) {
    throw unrenderable(`The SVG could not be rasterized: ${(error as Error).message}`);
  }
  return { png: rendered.asPng(), width: rendered.width, height: rendered.height } satisfies Raster;
}

function zoomFor(width: number, height: number, options: RasterOptions): number {
  if (!(width > 0 && height > 0))
    throw unrenderable('The SVG has no size: give it a viewBox or width and height');
  const wanted = options.width ? options.width / width : (options.scale ?? 2);
  const pixels = width * wanted * (height * wanted);
  if (pixels <= MAX_PNG_PIXELS) return wanted;
  if (!options.fit)
    throw tooLarge(
      `The PNG would be ${Math.round(width * wanted)}×${Math.round(height * wanted)} px; at most ${MAX_PNG_PIXELS.toLocaleString('en')} pixels. Lower scale or width.`,
    );
  return Math.sqrt(MAX_PNG_PIXELS / (width * height)) * 0.999;
}
