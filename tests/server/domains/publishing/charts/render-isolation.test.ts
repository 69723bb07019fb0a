// No chart can end the server: a render process that aborts (as resvg's panic did) or runs out of heap answers
// that request 422 and is replaced, generated rows past the bound are a 413 before vega runs, and through all
// of it the server keeps answering and the next chart renders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { vegaLiteExamples } from '../../../../helpers/vega-lite-examples.js';
import { ABORTING } from './fixtures/aborting-chart-tasks.js';

let srv: TestServer;
let api: ReturnType<TestServer['as']>;

beforeAll(async () => {
  srv = await startTestServer(
    { render: { taskTimeoutMs: 180_000, maxHeapMb: 192, cacheBytes: 16 << 20 } },
    { renderModules: [new URL('./fixtures/aborting-chart-tasks.ts', import.meta.url).href] },
  );
  api = srv.as({ bearer: await srv.createKey({ services: ['charts'] }) });
});
afterAll(() => srv.close());

const preview = (spec: unknown) =>
  api('/api/v1/charts/preview', { method: 'POST', body: JSON.stringify({ spec }) });
const bars = (extra: object = {}) => ({
  data: {
    values: [
      { q: 'a', r: 1 },
      { q: 'b', r: 2 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
  ...extra,
});

async function stillServing() {
  expect((await api('/api/v1/me')).status).toBe(200);
  expect((await preview(bars())).status).toBe(200);
}

// a render process starts in seconds on a quiet machine, but each test here may start two on a busy one
describe('render isolation', { timeout: 240_000 }, () => {
  it('answers a render process that aborts with 422 naming the chart, and keeps serving', async () => {
    const res = await preview(bars({ description: ABORTING }));
    expect(res.status).toBe(422);
    expect((await res.json()).error).toMatch(/stopped while drawing this chart/);
    await stillServing();
  });

  it('answers a render that runs out of heap with 422, and keeps serving', async () => {
    const res = await preview({
      data: { sequence: { start: 0, stop: 4000, as: 'i' } },
      transform: [{ calculate: 'sequence(0, 4000)', as: 'list' }, { flatten: ['list'] }],
      mark: 'point',
      encoding: { x: { field: 'list', type: 'quantitative' } },
    });
    expect(res.status).toBe(422);
    await stillServing();
  });

  it('answers generated rows past the bound with 413 before vega runs', async () => {
    const started = Date.now();
    for (const spec of [
      {
        data: { sequence: { start: 0, stop: 1e8 } },
        mark: 'point',
        encoding: { x: { field: 'data', type: 'quantitative' } },
      },
      { data: { sequence: { start: 0, stop: 10, step: 0 } }, mark: 'point' },
      bars({ transform: [{ impute: 'r', key: 'q', keyvals: { start: 0, stop: 5e6 } }] }),
    ]) {
      const res = await preview(spec);
      expect(res.status).toBe(413);
      expect((await res.json()).error).toMatch(/data rows; at most 200,000/);
    }
    expect(Date.now() - started).toBeLessThan(30_000);
    await stillServing();
  });

  it('previews the custom-projection map that made resvg panic', async () => {
    const map = vegaLiteExamples().find((example) => example.name === 'geo_custom_projection')!;
    const res = await api('/api/v1/charts/preview?format=png', {
      method: 'POST',
      body: JSON.stringify({ spec: map.spec }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    await stillServing();
  });
});
