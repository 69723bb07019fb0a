/**
 * Fonts for rasterizing: DejaVu, shipped as TrueType files in the dejavu-fonts-ttf package and handed to
 * resvg by path, so a PNG comes out the same on every machine whatever fonts the system has.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

export const FONT_FILES = [
  'DejaVuSans.ttf',
  'DejaVuSans-Bold.ttf',
  'DejaVuSans-Oblique.ttf',
  'DejaVuSans-BoldOblique.ttf',
  'DejaVuSansMono.ttf',
  'DejaVuSansMono-Bold.ttf',
].map((file) => join(FONT_DIR, file));

export const fontFile = (name: 'regular' | 'bold' | 'mono') =>
  join(
    FONT_DIR,
    { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', mono: 'DejaVuSansMono.ttf' }[name],
  );

/** Browsers use the system's UI font; resvg knows only DejaVu and falls through to it. */
export const FONT_STACK = `system-ui, -apple-system, 'Segoe UI', Inter, 'DejaVu Sans', sans-serif`;
export const MONO_STACK = `ui-monospace, 'SF Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace`;
