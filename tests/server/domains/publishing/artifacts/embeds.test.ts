// What an artifact embeds by slug: a key needs the embedded kind's service to embed it, and a page that others
// can open never shows a private chart or diagram, also when the chart is made private after publishing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { SLOW_MACHINE } from '../render-config.js';

let srv: TestServer;
let full: ReturnType<TestServer['as']>;
let narrow: ReturnType<TestServer['as']>;
let owner: ReturnType<TestServer['as']>;

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
  full = srv.as({ bearer: await srv.createKey({ services: ['artifacts', 'charts', 'diagrams'] }) });
  narrow = srv.as({ bearer: await srv.createKey({ services: ['artifacts'] }) });
  owner = srv.as(srv.owner);
});
afterAll(() => srv.close());

const send = (method: string, body: unknown) => ({ method, body: JSON.stringify(body) });
const anonymous = (path: string) => fetch(`${srv.url}${path}`);

/** A chart and a diagram (private, as publishing leaves them) whose drawings carry `marker`. */
async function embeddables(marker: string) {
  const spec = {
    data: { values: [{ q: `${marker}q`, r: 3 }] },
    mark: 'bar',
    encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
  };
  const chart = await full(
    '/api/v1/charts',
    send('POST', { title: `${marker} chart`, slug: `${marker}-chart`, spec }),
  );
  expect(chart.status, await chart.clone().text()).toBe(201);
  const svg = `<svg viewBox="0 0 200 60"><rect x="0" y="0" width="200" height="60"/><text x="100" y="30">${marker}d</text></svg>`;
  const diagram = await full(
    '/api/v1/diagrams',
    send('POST', { title: `${marker} diagram`, slug: `${marker}-diagram`, kind: 'flowchart', svg }),
  );
  expect(diagram.status, await diagram.clone().text()).toBe(201);
  return { chart: `${marker}-chart`, diagram: `${marker}-diagram` };
}

const embedding = ({ chart, diagram }: { chart?: string; diagram?: string }) => ({
  children: [
    { type: 'markdown', text: 'Quarterly notes' },
    ...(chart ? [{ type: 'chart', slug: chart }] : []),
    ...(diagram ? [{ type: 'diagram', slug: diagram }] : []),
  ],
});

async function publishArtifact(api: typeof full, document: unknown): Promise<string> {
  const res = await api('/api/v1/artifacts', send('POST', { title: 'Notes', document }));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

const share = async (kind: string, slug: string, visibility: string) => {
  const res = await owner(`/api/v1/${kind}/${slug}/visibility`, send('POST', { visibility }));
  expect(res.status).toBe(200);
};

describe('embedding needs the embedded kind’s service', () => {
  it('answers 403 naming charts or diagrams to a key without them, and the public page keeps its version', async () => {
    const { chart, diagram } = await embeddables('scopeleak');
    const slug = await publishArtifact(narrow, embedding({}));
    await share('artifacts', slug, 'public');

    for (const [service, document] of [
      ['charts', embedding({ chart })],
      ['diagrams', embedding({ diagram })],
    ] as const) {
      const res = await narrow(`/api/v1/artifacts/${slug}`, send('PUT', { document }));
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(body).toMatchObject({ service, enabledServices: ['artifacts'] });
      expect(body.error).toContain(`${service} service`);
      expect(body.issues[0].path).toBe('/children/1/slug');
    }
    const fresh = await narrow(
      '/api/v1/artifacts',
      send('POST', { title: 'X', document: embedding({ chart }) }),
    );
    expect(fresh.status).toBe(403);

    const page = await anonymous(`/a/${slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('scopeleak');
    expect(html).toContain('Version 1');
    expect((await anonymous(`/c/${chart}`)).status).toBe(404);
  });

  it('answers 403 naming assets or transcription for images, audio, transcripts and a chart reading an asset', async () => {
    const form = new FormData();
    form.append('file', new Blob(['q,r\nsecretrow,3\n'], { type: 'text/csv' }), 'rows.csv');
    const bearer = await srv.createKey({ services: ['assets'] });
    const upload = await fetch(`${srv.url}/api/v1/uploads`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(upload.status).toBe(201);
    const csv = ((await upload.json()) as { id: string }).id;
    const reads = {
      data: { url: `asset:${csv}` },
      mark: 'bar',
      encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
    };
    for (const [service, component] of [
      ['assets', { type: 'image', asset: 'ast_anyid', alt: 'x' }],
      ['assets', { type: 'chart', spec: reads }],
      // Refused before it is looked up: whether the asset exists makes no difference.
      ['assets', { type: 'chart', spec: { ...reads, data: { url: 'asset:ast_nosuchdata' } } }],
      ['transcription', { type: 'audio', asset: csv, transcript: 'trn_anyid' }],
    ] as const) {
      const lacking = srv.as({
        bearer: await srv.createKey({
          services: service === 'assets' ? ['artifacts'] : ['artifacts', 'assets'],
        }),
      });
      const res = await lacking(
        '/api/v1/artifacts',
        send('POST', { title: 'X', document: { children: [component] } }),
      );
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(body.service).toBe(service);
    }
  });

  it('validate names the missing service as an issue, and says nothing of whether the chart exists', async () => {
    const res = await narrow(
      '/api/v1/artifacts/validate',
      send('POST', { document: embedding({ chart: 'no-such-chart', diagram: 'no-such-diagram' }) }),
    );
    expect(await res.json()).toEqual({
      valid: false,
      issues: [
        { path: '/children/1/slug', message: expect.stringContaining('needs the charts service') },
        { path: '/children/2/slug', message: expect.stringContaining('needs the diagrams service') },
      ],
    });
  });
});

describe('a page others can open', () => {
  it('shows a private chart and diagram as a placeholder to everyone, and fully while the page is private', async () => {
    const embeds = await embeddables('hushhush');
    const slug = await publishArtifact(full, embedding(embeds));
    const ownView = await (await owner(`/a/${slug}`)).text();
    expect(ownView).toContain('hushhushq');
    expect(ownView).toContain('hushhushd');

    await share('artifacts', slug, 'public');
    for (const res of [await anonymous(`/a/${slug}`), await owner(`/a/${slug}`)]) {
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain('hushhush');
      expect(html).toContain('This chart is private');
      expect(html).toContain('This diagram is private');
    }
  });

  it('stops showing a chart made private after publishing, though its page was rendered before', async () => {
    const embeds = await embeddables('later');
    await share('charts', embeds.chart, 'public');
    await share('diagrams', embeds.diagram, 'unlisted');
    const slug = await publishArtifact(full, embedding(embeds));
    await share('artifacts', slug, 'public');
    const before = await anonymous(`/a/${slug}`);
    const shown = await before.text();
    expect(shown).toContain('laterq');
    expect(shown).toContain('laterd');

    await share('charts', embeds.chart, 'private');
    const after = await anonymous(`/a/${slug}`);
    const html = await after.text();
    expect(html).not.toContain('laterq');
    expect(html).not.toContain('later chart');
    expect(html).toContain('This chart is private');
    expect(html).toContain('laterd');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));

    await share('charts', embeds.chart, 'public');
    expect(await (await anonymous(`/a/${slug}`)).text()).toContain('laterq');
  });
});
