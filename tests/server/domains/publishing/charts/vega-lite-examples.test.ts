// The official Vega-Lite examples, as a new user would try them: each previews and publishes (page, dark page,
// .svg, .png) unless it asks for what the policy refuses (remote data, image marks, links), and draws the
// same data marks as vega's own render of the same spec. The product's theme changes axes, padding and label
// angles, not data; a single view's plot area keeps its size unless the spec sizes it to fit its padding.
import pMap from 'p-map';
import sharp from 'sharp';
import * as vega from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import * as vl from 'vega-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { type Example, vegaLiteExamples } from '../../../../helpers/vega-lite-examples.js';
import { drawnMarks } from '../../../../helpers/vega-marks.js';

// `_future` examples use Vega-Lite features not released yet (vega-lite's own tests skip them too)
const examples = vegaLiteExamples().filter((example) => !example.name.endsWith('_future'));
const drawable = examples.filter((example) => !example.refusal);

let srv: TestServer;
let api: ReturnType<TestServer['as']>;
beforeAll(async () => {
  srv = await startTestServer({
    render: { taskTimeoutMs: 180_000, threads: 2, maxHeapMb: 1024, cacheBytes: 64 << 20 },
    // the examples carry vega-datasets inline (a user with data this size would upload it as an asset)
    limits: { jsonBytes: 32 << 20 },
  });
  api = srv.as({ bearer: await srv.createKey({ services: ['charts'] }) });
});
afterAll(() => srv.close());

const post = (path: string, body: unknown) => api(path, { method: 'POST', body: JSON.stringify(body) });
const asOwner = (path: string) => fetch(`${srv.url}${path}`, { headers: { cookie: srv.owner.cookie } });

async function vegasOwnSvg(spec: object): Promise<string> {
  const compiled = vl.compile(spec as vl.TopLevelSpec, { logger: vega.logger(vega.None) }).spec;
  const runtime = vega.parse(compiled, undefined, { ast: true });
  const view = new vega.View(runtime, { renderer: 'none', expr: expressionInterpreter, logLevel: vega.None });
  try {
    await view.runAsync();
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const COMPOSITE = ['facet', 'repeat', 'concat', 'hconcat', 'vconcat'];
function plotKeepsItsSize({ spec }: Example): boolean {
  const encoding = (spec.encoding ?? {}) as Record<string, unknown>;
  const autosize = JSON.stringify(spec.autosize ?? '');
  return (
    !COMPOSITE.some((key) => key in spec) &&
    !('row' in encoding || 'column' in encoding || 'facet' in encoding) &&
    !autosize.includes('fit') &&
    spec.width !== 'container' &&
    spec.height !== 'container'
  );
}
// vega's sample transform draws at random, so two renders need not keep the same rows
const drawsAtRandom = ({ spec }: Example) => JSON.stringify(spec).includes('"sample"');

async function notBlank(png: Buffer): Promise<boolean> {
  const { channels } = await sharp(png).stats();
  return channels.some((channel) => channel.min !== channel.max);
}

describe('the Vega-Lite examples', { timeout: 1_800_000 }, () => {
  it('refuses only what the policy names, each with a 400 that says so', async () => {
    const refused = examples.filter((example) => example.refusal);
    expect(refused.map((example) => example.refusal).sort()).toEqual([
      'href channel',
      'image mark',
      'image mark',
      'remote data',
      'remote data',
      'remote data',
    ]);
    const words = {
      'remote data': 'cannot load data from a URL',
      'image mark': 'image marks',
      'href channel': 'href channel',
    };
    for (const example of refused) {
      const res = await post('/api/v1/charts/preview', { spec: example.spec });
      expect(res.status, example.name).toBe(400);
      expect((await res.json()).error, example.name).toContain(words[example.refusal!]);
    }
  });

  it('previews every other example with the data marks vega draws and a PNG of its size that is not blank', async () => {
    const problems: string[] = [];
    await pMap(
      drawable,
      async (example) => {
        const res = await post('/api/v1/charts/preview', { spec: example.spec });
        if (res.status !== 200)
          return void problems.push(`${example.name}: ${res.status} ${await res.text()}`);
        const preview = await res.json();
        const ours = drawnMarks(preview.svg);
        const theirs = drawnMarks(await vegasOwnSvg(example.spec));
        if (ours.items !== theirs.items && !drawsAtRandom(example))
          problems.push(`${example.name}: ${ours.items} data marks, vega draws ${theirs.items}`);
        if (plotKeepsItsSize(example) && JSON.stringify(ours.plot) !== JSON.stringify(theirs.plot))
          problems.push(
            `${example.name}: plot ${JSON.stringify(ours.plot)}, vega ${JSON.stringify(theirs.plot)}`,
          );
        if (
          preview.pngWidth !== Math.round(preview.width * 2) ||
          preview.pngHeight !== Math.round(preview.height * 2)
        )
          problems.push(
            `${example.name}: PNG ${preview.pngWidth}×${preview.pngHeight} for ${preview.width}×${preview.height}`,
          );
        const png = Buffer.from(preview.png.slice('data:image/png;base64,'.length), 'base64');
        if (!(await notBlank(png))) problems.push(`${example.name}: the PNG is blank`);
      },
      { concurrency: 2 },
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('publishes every other example: its page (light and dark), .svg and .png answer 200', async () => {
    const problems: string[] = [];
    await pMap(
      drawable,
      async (example) => {
        const res = await post('/api/v1/charts', { title: example.name, spec: example.spec });
        if (res.status !== 201)
          return void problems.push(`${example.name}: publish ${res.status} ${await res.text()}`);
        const { slug } = await res.json();
        for (const path of [`/c/${slug}`, `/c/${slug}?theme=dark`, `/c/${slug}.svg`, `/c/${slug}.png`]) {
          const served = await asOwner(path);
          await served.arrayBuffer();
          if (served.status !== 200) problems.push(`${example.name}: ${path} ${served.status}`);
        }
      },
      { concurrency: 2 },
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
