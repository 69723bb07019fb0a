import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderDiagram } from '../../../../../server/domains/publishing/diagrams/render-diagram.js';
import { EXAMPLE_DIAGRAM } from '../../../../../server/domains/publishing/diagrams/vocabulary.js';
import { failureOf, parseAsSvg } from '../svg-helpers.js';

describe('renderDiagram', () => {
  it('answers a themed SVG that parses as SVG and a PNG of the declared size', async () => {
    const out = renderDiagram({ svg: EXAMPLE_DIAGRAM, title: 'Upload', svgTheme: 'auto', png: { scale: 2 } });
    const parsed = parseAsSvg(out.svg!);
    expect(parsed.root).toEqual({ name: 'svg', uri: 'http://www.w3.org/2000/svg' });
    expect(parsed.names).toEqual(expect.arrayContaining(['style', 'defs', 'marker', 'title']));
    expect(out.svg).toContain('@media (prefers-color-scheme: dark)');
    const meta = await sharp(Buffer.from(out.png!.bytes)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 840, height: 240 });
    expect(out.png).toMatchObject({ width: 840, height: 240 });
  });

  it('draws the same PNG bytes every time (shipped fonts only)', () => {
    const a = renderDiagram({ svg: EXAMPLE_DIAGRAM, png: {} }).png!.bytes;
    const b = renderDiagram({ svg: EXAMPLE_DIAGRAM, png: {} }).png!.bytes;
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('renders light and dark themes with their own canvas colour', async () => {
    const pixel = async (theme: 'light' | 'dark') => {
      const png = renderDiagram({ svg: EXAMPLE_DIAGRAM, png: { theme, scale: 1 } }).png!.bytes;
      const { data } = await sharp(Buffer.from(png)).raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 3)];
    };
    expect(await pixel('light')).toEqual([255, 255, 255]);
    expect(await pixel('dark')).toEqual([0x11, 0x11, 0x13]);
  });

  it('fits a viewBox around bare elements', () => {
    const out = renderDiagram({ svg: '<rect class="node" x="100" y="50" width="200" height="80" rx="8"/>' });
    expect(out.box).toEqual({ x: 83, y: 33, width: 234, height: 114 });
    expect(out.document).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="83 33 234 114">/);
  });

  it('refuses a PNG past the pixel bound with 413, and fits it when asked to', () => {
    const huge = '<svg viewBox="0 0 20000 20000"><rect class="node" width="20000" height="20000"/></svg>';
    expect(failureOf(() => renderDiagram({ svg: huge, png: { scale: 1 } })).status).toBe(413);
    const fitted = renderDiagram({ svg: huge, png: { scale: 1, fit: true } }).png!;
    expect(fitted.width * fitted.height).toBeLessThanOrEqual(4096 * 4096);
  });

  it('refuses a diagram that draws nothing', () => {
    expect(failureOf(() => renderDiagram({ svg: '<g/>' })).status).toBe(400);
  });
});
