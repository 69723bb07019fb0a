// Layers wholly off the canvas made resvg 2.6.2 panic and abort the process (a chart with a projection or a
// zoom did it); rewritten, they draw. Each case runs in its own process so a panic fails only that case.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { withLayersOnCanvas } from '../../../../server/engines/render/resvg-layers.js';

const svgOf = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><clipPath id="c"><rect width="100" height="100"/></clipPath></defs>${body}</svg>`;

/** Rasterizes in a child process: the exit code and the PNG's size in bytes. */
async function rasterizeApart(svg: string) {
  const script = `const { Resvg } = require('@resvg/resvg-js'); process.stdout.write(String(new Resvg(${JSON.stringify(svg)}).render().asPng().length));`;
  return promisify(execFile)(process.execPath, ['-e', script]).then(
    ({ stdout }) => ({ code: 0, bytes: Number(stdout) }),
    (error: { code: number }) => ({ code: error.code, bytes: 0 }),
  );
}

describe('layers off the canvas', () => {
  it.each([
    [
      'a translucent mark',
      '<path transform="translate(1783,592)" d="M1.5,0A1.5,1.5,0,1,1,-1.5,0Z" opacity="0.7"/>',
    ],
    ['a clipped group', '<g clip-path="url(#c)"><circle cx="500" cy="500" r="2"/></g>'],
    ['a translucent group', '<g opacity="0.5"><circle cx="-500" cy="-500" r="2"/></g>'],
  ])('draws %s instead of aborting', async (_name, body) => {
    expect((await rasterizeApart(svgOf(body))).code).not.toBe(0); // resvg as shipped: a panic
    const drawn = await rasterizeApart(withLayersOnCanvas(svgOf(body)));
    expect(drawn).toMatchObject({ code: 0, bytes: expect.any(Number) });
    expect(drawn.bytes).toBeGreaterThan(0);
  });

  it("keeps a shape's look: its opacity multiplies its fill and stroke opacity", () => {
    const out = withLayersOnCanvas(svgOf('<circle r="2" fill="#f00" fill-opacity="0.5" opacity="0.5"/>'));
    expect(out).toContain('<circle r="2" fill="#f00" fill-opacity="0.25" stroke-opacity="0.5"/>');
    expect(out).not.toMatch(/\sopacity=/);
  });
});
