// Every documented URL form of the three kinds reaches its own handler: /c/q3.png is the PNG of q3, never
// a page for a slug "q3.png"; /api/v1/diagrams/vocabulary is the vocabulary, never a diagram.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../../../server/surfaces/route-table.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { KINDS } from './kinds.js';
import { SLOW_MACHINE } from './render-config.js';
import { parseAsSvg } from './svg-helpers.js';

let srv: TestServer;
const slugs: Record<string, string> = {};

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
  const api = srv.as({ bearer: await srv.createKey({ services: ['diagrams', 'charts', 'artifacts'] }) });
  for (const { kind, field, document, extra } of KINDS) {
    const slug = `q3-${kind}`;
    const body = { ...extra, title: `Q3 ${kind}`, slug, [field]: document('v1') };
    const res = await api(`/api/v1/${kind}`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    await api(`/api/v1/${kind}/${slug}`, {
      method: 'PUT',
      body: JSON.stringify({ [field]: document('v2') }),
    });
    await srv.as(srv.owner)(`/api/v1/${kind}/${slug}/visibility`, {
      method: 'POST',
      body: JSON.stringify({ visibility: 'unlisted' }),
    });
    slugs[kind] = slug;
  }
});
afterAll(() => srv.close());

const get = (path: string) => fetch(`${srv.url}${path}`);

describe('page routes', () => {
  it.each([
    ['/d/q3-diagrams', 'text/html'],
    ['/d/q3-diagrams?version=1', 'text/html'],
    ['/d/q3-diagrams.svg', 'image/svg+xml'],
    ['/d/q3-diagrams.svg?version=1', 'image/svg+xml'],
    ['/d/q3-diagrams.png', 'image/png'],
    ['/d/q3-diagrams.png?version=1&theme=dark', 'image/png'],
    ['/c/q3-charts', 'text/html'],
    ['/c/q3-charts?version=1', 'text/html'],
    ['/c/q3-charts.svg', 'image/svg+xml'],
    ['/c/q3-charts.svg?theme=dark', 'image/svg+xml'],
    ['/c/q3-charts.png', 'image/png'],
    ['/c/q3-charts.png?version=1', 'image/png'],
    ['/c/-/runtime.js', 'text/javascript'],
    ['/a/q3-artifacts', 'text/html'],
    ['/a/q3-artifacts?version=1', 'text/html'],
    ['/a/q3-artifacts.png', 'image/png'],
  ])('%s answers %s', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    const body = Buffer.from(await res.arrayBuffer());
    if (type === 'image/svg+xml') expect(parseAsSvg(body.toString()).root?.name).toBe('svg');
    if (type === 'image/png') {
      const meta = await sharp(body).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBeGreaterThan(0);
    }
    if (type === 'text/html') expect(body.toString()).toContain(path.includes('version=1') ? 'v1' : 'v2');
  });

  it('answers 404 for a missing slug in every form, and for a slug with a dot', async () => {
    for (const path of [
      '/d/nope',
      '/d/nope.svg',
      '/d/nope.png',
      '/c/nope.png',
      '/a/nope',
      '/a/nope.png',
      '/d/q3-diagrams.gif',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
    }
  });

  it('sizes the artifact card for link previews (1200×630)', async () => {
    const meta = await sharp(Buffer.from(await (await get('/a/q3-artifacts.png')).arrayBuffer())).metadata();
    expect(meta).toMatchObject({ width: 1200, height: 630 });
  });
});

describe('API routes with fixed words', () => {
  it('reaches vocabulary, components, preview, layout and validate, not a slug', async () => {
    const api = srv.as(srv.owner);
    const vocabulary = await (await api('/api/v1/diagrams/vocabulary')).json();
    expect(vocabulary.shapes.map((s: { name: string }) => s.name)).toContain('node');
    const components = await (await api('/api/v1/artifacts/components')).json();
    expect(components.components).toHaveLength(15);
    const layout = await api('/api/v1/diagrams/layout', {
      method: 'POST',
      body: JSON.stringify({ nodes: [{ id: 'a' }] }),
    });
    expect(layout.status).toBe(200);
    const preview = await api('/api/v1/diagrams/preview', {
      method: 'POST',
      body: JSON.stringify({ svg: KINDS[0].document('p') }),
    });
    expect(preview.status).toBe(200);
    const chart = await api('/api/v1/charts/preview', {
      method: 'POST',
      body: JSON.stringify({ spec: KINDS[1].document('p') }),
    });
    expect(chart.status).toBe(200);
    const valid = await api('/api/v1/artifacts/validate', {
      method: 'POST',
      body: JSON.stringify({ document: KINDS[2].document('p') }),
    });
    expect(await valid.json()).toEqual({ valid: true, issues: [] });
    const versions = await (await api(`/api/v1/charts/${slugs.charts}/versions`)).json();
    expect(versions.data).toHaveLength(2);
  });

  it('mounts each capability with fixed words before /:slug and .svg/.png before the page', () => {
    for (const name of ['diagrams', 'charts', 'artifacts']) {
      const paths = Object.values(capabilities.find((c) => c.name === name)!.routes).map(
        (r) => `${r.method} ${r.path}`,
      );
      const mountsFirst = (a: string, b: string) => {
        if (paths.includes(a) && paths.includes(b))
          expect(paths.indexOf(a), `${a} before ${b}`).toBeLessThan(paths.indexOf(b));
      };
      const prefix = { diagrams: '/d', charts: '/c', artifacts: '/a' }[name];
      mountsFirst(`GET ${prefix}/:slug.svg`, `GET ${prefix}/:slug`);
      mountsFirst(`GET ${prefix}/:slug.png`, `GET ${prefix}/:slug`);
      mountsFirst(`GET /c/-/runtime.js`, `GET /c/:slug`);
      for (const word of ['vocabulary', 'components'])
        mountsFirst(`GET /api/v1/${name}/${word}`, `GET /api/v1/${name}/:slug`);
    }
  });
});
