import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../../../../server/domains/publishing/charts/render-chart.js';
import { RenderFailure } from '../../../../../server/engines/render/render-failure.js';
import { parseAsSvg } from '../svg-helpers.js';

const bars = {
  data: {
    values: [
      { q: 'Q1', r: 120 },
      { q: 'Q2', r: 160 },
      { q: 'Q3', r: 150 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
  width: 300,
  height: 200,
};

async function failureOf(spec: unknown, assets?: Parameters<typeof renderChart>[0]['assets']) {
  const error = await renderChart({ spec, assets, svg: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenderFailure);
  return error as RenderFailure & { details: { issues: { path: string; message: string }[] } };
}

describe('renderChart', () => {
  it('answers an SVG that parses as SVG and a PNG of the declared size', async () => {
    const out = await renderChart({ spec: bars, svg: {}, png: { scale: 2 } });
    expect(parseAsSvg(out.svg!).root).toEqual({ name: 'svg', uri: 'http://www.w3.org/2000/svg' });
    expect(out.svg).toContain('Q2');
    const meta = await sharp(Buffer.from(out.png!.bytes)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: out.width * 2, height: out.height * 2 });
  });

  it('draws identical PNG bytes on every run', async () => {
    const a = (await renderChart({ spec: bars, png: {} })).png!.bytes;
    const b = (await renderChart({ spec: bars, png: {} })).png!.bytes;
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('reports schema errors as JSON pointers with the nearest valid name', async () => {
    const failure = await failureOf({
      ...bars,
      mark: 'barr',
      encoding: { ...bars.encoding, y: { feld: 'r', type: 'quantitative' } },
    });
    expect(failure.status).toBe(400);
    expect(failure.details.issues).toEqual(
      expect.arrayContaining([
        { path: '/mark', message: expect.stringContaining('found "barr" (did you mean "bar"?)') },
        {
          path: '/encoding/y',
          message: expect.stringContaining('unknown property "feld" (did you mean "field"?'),
        },
      ]),
    );
  });

  it.each([
    [
      'a remote url',
      { data: { url: 'https://evil.example/x.csv' } },
      '/data/url',
      'cannot load data from a URL',
    ],
    ['a file path', { data: { url: '/etc/passwd' } }, '/data/url', 'cannot load data from a URL or file'],
    ['a file: url', { data: { url: 'file:///etc/passwd' } }, '/data/url', 'cannot load data'],
    [
      'an expression reaching window',
      { transform: [{ calculate: 'window.location.href', as: 'x' }] },
      '/transform/0/calculate',
      'reaches "window"',
    ],
    [
      'an event reaching its view',
      { params: [{ name: 'p', expr: 'event.view.document.cookie' }] },
      '/params/0/expr',
      'reaches',
    ],
    [
      'a prototype walk',
      { transform: [{ calculate: "datum['constructor']", as: 'x' }] },
      '/transform/0/calculate',
      'reaches "constructor"',
    ],
    ['an image mark', { mark: 'image' }, '/mark', 'image marks'],
    [
      'the href channel',
      { encoding: { ...bars.encoding, href: { field: 'q' } } },
      '/encoding/href',
      'href channel',
    ],
  ])('refuses %s with a 400 naming the place', async (_name, change, path, words) => {
    const failure = await failureOf({ ...bars, ...change });
    expect(failure.status).toBe(400);
    expect(failure.details.issues[0].path).toBe(path);
    expect(failure.details.issues[0].message).toContain(words);
  });

  it('reads a workspace CSV asset named as asset:<id> with no loader involved', async () => {
    const spec = { ...bars, data: { url: 'asset:ast_sales' } };
    const out = await renderChart({
      spec,
      assets: { ast_sales: { text: 'q,r\nQ7,5\nQ8,9\n', format: 'csv' } },
      svg: {},
    });
    expect(out.svg).toContain('Q7');
    expect(out.rows).toBe(2);
    const missing = await failureOf(spec, {});
    expect(missing.details.issues[0]).toEqual({
      path: '/data/url',
      message: 'no CSV or JSON asset ast_sales in this workspace',
    });
  });

  it('answers 413 past the row bound', async () => {
    const text = `q,r\n${'A,1\n'.repeat(200_001)}`;
    const failure = await failureOf(
      { ...bars, data: { url: 'asset:ast_big' } },
      { ast_big: { text, format: 'csv' } },
    );
    expect(failure.status).toBe(413);
  });

  it('compiles light and dark specs for the interactive page, the dark one without a copy of the rows', async () => {
    const out = await renderChart({ spec: bars, page: true });
    const light = out.page!.light as { data: { values?: unknown[] }[] };
    const dark = out.page!.dark as { data: { values?: unknown[]; name: string }[]; background?: string };
    expect(light.data[0].values).toHaveLength(3);
    expect(dark.data[0].values).toEqual([]);
    expect(dark.background).toBe('#111113');
  });
});
