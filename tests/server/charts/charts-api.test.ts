// The charts routes beyond the shared model: preview, data from the workspace's own CSV asset, and refusals.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { SLOW_MACHINE } from '../publishing/render-config.js';

let srv: TestServer;
let key: string;
let api: ReturnType<TestServer['as']>;

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
  key = await srv.createKey({ services: ['charts', 'assets'] });
  api = srv.as({ bearer: key });
});
afterAll(() => srv.close());

async function uploadCsv(text: string, name = 'sales.csv', bearer = key): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  const res = await fetch(`${srv.url}/api/v1/uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const post = (path: string, body: unknown) => api(path, { method: 'POST', body: JSON.stringify(body) });
const bars = (data: unknown) => ({
  data,
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
  width: 240,
  height: 160,
});

describe('charts API', () => {
  it('previews with a PNG of the declared size and publishes nothing', async () => {
    const res = await post('/api/v1/charts/preview', {
      spec: bars({ values: [{ q: 'a', r: 1 }] }),
      scale: 1,
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    const png = Buffer.from(body.png.split(',')[1], 'base64');
    expect(await sharp(png).metadata()).toMatchObject({ width: body.pngWidth, height: body.pngHeight });
    expect(body.pngWidth).toBe(Math.round(body.width));
    expect((await (await api('/api/v1/charts')).json()).data).toEqual([]);
  });

  it('reads data from a CSV asset of the same workspace, and not from another one', async () => {
    const id = await uploadCsv('q,r\nNorth,7\nSouth,9\n');
    const res = await post('/api/v1/charts', { title: 'From CSV', spec: bars({ url: `asset:${id}` }) });
    expect(res.status).toBe(201);
    const { slug } = await res.json();
    const svg = await (await srv.as(srv.owner)(`/c/${slug}.svg`)).text();
    expect(svg).toContain('North');
    expect(svg).toContain('South');

    const stranger = await srv.signInApproved('other@example.com');
    const theirs = await srv.createKey({ services: ['charts', 'assets'], session: stranger });
    const foreign = await uploadCsv('q,r\nX,1\n', 'x.csv', theirs);
    const refused = await post('/api/v1/charts', {
      title: 'Theirs',
      spec: bars({ url: `asset:${foreign}` }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).issues).toEqual([
      { path: '/data/url', message: `no CSV or JSON asset ${foreign} in this workspace` },
    ]);
  });

  it('answers 413 past the row bound and 400 for invalid Vega-Lite', async () => {
    const id = await uploadCsv(`q,r\n${'A,1\n'.repeat(200_001)}`, 'big.csv');
    const big = await post('/api/v1/charts/preview', { spec: bars({ url: `asset:${id}` }) });
    expect(big.status).toBe(413);
    const invalid = await post('/api/v1/charts', {
      title: 'Bad',
      spec: { ...bars({ values: [] }), mark: 'pie' },
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).issues[0]).toMatchObject({ path: '/mark' });
  });
});
