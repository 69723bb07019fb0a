// The part of opentype.js (which ships no types) that text-measure.ts uses.
declare module 'opentype.js' {
  type Glyph = { index: number; advanceWidth?: number };
  type Font = { unitsPerEm: number; charToGlyph(char: string): Glyph };
  const opentype: { parse(buffer: ArrayBuffer): Font };
  export default opentype;
}
