/**
 * Text widths in the shipped DejaVu faces, so laid-out boxes fit their labels in the PNG exactly (browsers
 * use narrower system fonts, so labels there have room to spare). Advance widths only: no shaping needed
 * for box sizes.
 */
import { readFileSync } from 'node:fs';
import opentype from 'opentype.js';
import { fontFile } from './fonts.js';

type Face = 'regular' | 'bold' | 'mono';
const faces = new Map<Face, ReturnType<typeof opentype.parse>>();
const widths = new Map<string, number>();

function face(name: Face) {
  let font = faces.get(name);
  if (!font) {
    const bytes = readFileSync(fontFile(name));
    font = opentype.parse(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
    );
    faces.set(name, font);
  }
  return font;
}

/** Width in px of `text` at `size` px; characters DejaVu lacks count as 1 em (CJK-wide). */
export function measureText(text: string, size: number, name: Face = 'regular'): number {
  const font = face(name);
  let units = 0;
  for (const char of text) {
    const key = `${name}:${char}`;
    let width = widths.get(key);
    if (width === undefined) {
      const glyph = font.charToGlyph(char);
      width = glyph.index === 0 ? font.unitsPerEm : (glyph.advanceWidth ?? font.unitsPerEm);
      widths.set(key, width);
    }
    units += width;
  }
  return (units * size) / font.unitsPerEm;
}
