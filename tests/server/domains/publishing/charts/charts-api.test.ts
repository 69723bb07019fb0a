// The charts routes beyond the shared model: preview, data from the workspace's own CSV asset (which a key reads
// only with the assets service too), and refusals.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { SLOW_MACHINE } from '../render-config.js';

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

describe('a key with charts alone', () => {
  it('publishes and previews inline data, and is refused (403 naming assets) a chart that reads an asset, before it is read', async () => {
    const secret = await uploadCsv('q,r\nsecretrow,4\n', 'secret.csv');
    const bearer = await srv.createKey({ services: ['charts'] });
    const narrow = srv.as({ bearer });
    const inline = bars({ values: [{ q: 'a', r: 1 }] });
    const published = await narrow('/api/v1/charts', {
      method: 'POST',
      body: JSON.stringify({ title: 'Inline', spec: inline }),
    });
    expect(published.status).toBe(201);
    const { slug } = await published.json();
    const preview = await narrow('/api/v1/charts/preview', {
      method: 'POST',
      body: JSON.stringify({ spec: inline }),
    });
    expect(preview.status).toBe(200);

    const answers: string[] = [];
    for (const assetId of [secret, 'ast_nosuchasset'])
      for (const [method, path, body] of [
        ['POST', '/api/v1/charts/preview', { spec: bars({ url: `asset:${assetId}` }) }],
        ['POST', '/api/v1/charts', { title: 'Reads', spec: bars({ url: `asset:${assetId}` }) }],
        ['PUT', `/api/v1/charts/${slug}`, { spec: bars({ url: `asset:${assetId}` }) }],
      ] as const) {
        const res = await narrow(path, { method, body: JSON.stringify(body) });
        const text = await res.text();
        expect(res.status, `${method} ${path}: ${text}`).toBe(403);
        expect(JSON.parse(text)).toEqual({
          error: 'This API key is not enabled for the assets service, so it cannot read what /data/url names',
          service: 'assets',
          enabledServices: ['charts'],
          issues: [
            {
              path: '/data/url',
              message: `reading asset ${assetId} needs the assets service, which this API key is not enabled for`,
            },
          ],
        });
        expect(text).not.toContain('secretrow');
        answers.push(text.replaceAll(assetId, '<id>'));
      }
    // Whether the asset exists makes no difference to the answer.
    expect(answers.slice(0, 3)).toEqual(answers.slice(3));
    expect((await (await narrow(`/api/v1/charts/${slug}`)).json()).latestVersion).toBe(1);
  });
});
