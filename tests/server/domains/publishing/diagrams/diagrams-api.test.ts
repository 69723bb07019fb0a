// The diagrams routes beyond the shared model: vocabulary, preview (JSON or PNG bytes), layout, kind filter, bounds.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIAGRAM } from '../../../../../server/domains/publishing/diagrams/vocabulary.js';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { SLOW_MACHINE } from '../render-config.js';
import { parseAsSvg } from '../svg-helpers.js';

let srv: TestServer;
let api: ReturnType<TestServer['as']>;

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
  api = srv.as({ bearer: await srv.createKey({ services: ['diagrams'] }) });
});
afterAll(() => srv.close());

const post = (path: string, body: unknown) => api(path, { method: 'POST', body: JSON.stringify(body) });

describe('diagrams API', () => {
  it('describes every class with a description and an example', async () => {
    const vocabulary = await (await api('/api/v1/diagrams/vocabulary')).json();
    const entries = [
      ...vocabulary.shapes,
      ...vocabulary.edges,
      ...vocabulary.groups,
      ...vocabulary.modifiers,
      ...vocabulary.typography,
    ];
    expect(entries.length).toBeGreaterThan(30);
    for (const entry of entries) {
      expect(entry.description.length).toBeGreaterThan(10);
      expect(parseAsSvg(`<svg xmlns="http://www.w3.org/2000/svg">${entry.example}</svg>`).root?.name).toBe(
        'svg',
      );
    }
    expect(vocabulary.modifiers.map((m: { name: string }) => m.name)).toEqual(
      expect.arrayContaining(['emphasis', 'muted', 'ok', 'warn', 'error', 'dashed', 'dotted']),
    );
    expect(vocabulary.kinds).toEqual(
      expect.arrayContaining([
        'flowchart',
        'sequence',
        'architecture',
        'state',
        'entity-relationship',
        'timeline',
      ]),
    );
  });

  it('previews as JSON with a PNG data URL of the declared size, warnings with positions, or as PNG bytes', async () => {
    const svg = EXAMPLE_DIAGRAM.replace('class="edge"', 'class="edge dashd"');
    const res = await post('/api/v1/diagrams/preview', { svg, scale: 1 });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.warnings).toEqual([
      expect.objectContaining({ line: 5, message: expect.stringContaining('did you mean "dashed"') }),
    ]);
    const png = Buffer.from(body.png.replace('data:image/png;base64,', ''), 'base64');
    expect(await sharp(png).metadata()).toMatchObject({
      format: 'png',
      width: body.pngWidth,
      height: body.pngHeight,
    });
    expect([body.pngWidth, body.pngHeight]).toEqual([420, 120]);
    expect(parseAsSvg(body.svg).root?.name).toBe('svg');
    const bytes = await post('/api/v1/diagrams/preview?format=png', { svg, scale: 2, theme: 'dark' });
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await bytes.arrayBuffer())).metadata()).toMatchObject({
      width: 840,
      height: 240,
    });
    expect(await (await api('/api/v1/diagrams')).json()).toMatchObject({ data: [] }); // preview publishes nothing
  });

  it('lays out a graph as JSON and as a publishable SVG', async () => {
    const graph = {
      nodes: [
        { id: 'a', label: 'Start', shape: 'terminal' },
        { id: 'b', label: 'Check', shape: 'decision' },
        { id: 'c', label: 'Done', tone: 'ok' },
      ],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c', label: 'yes' },
      ],
      direction: 'down',
    };
    const json = await (await post('/api/v1/diagrams/layout', graph)).json();
    expect(json.nodes.map((n: { id: string }) => n.id)).toEqual(['a', 'b', 'c']);
    expect(json.nodes[1].y).toBeGreaterThan(json.nodes[0].y);
    expect(json).not.toHaveProperty('svg');
    const withSvg = await (
      await post('/api/v1/diagrams/layout', { ...graph, format: 'svg', title: 'Flow' })
    ).json();
    const published = await post('/api/v1/diagrams', {
      title: 'Laid out',
      kind: 'flowchart',
      svg: withSvg.svg,
    });
    expect(published.status).toBe(201);
    expect((await published.json()).warnings).toEqual([]);
    const missing = await post('/api/v1/diagrams/layout', {
      nodes: [{ id: 'a' }],
      edges: [{ from: 'a', to: 'zz' }],
    });
    expect(missing.status).toBe(400);
    expect((await missing.json()).issues).toEqual([{ path: '/edges/0/to', message: 'no node with id "zz"' }]);
  });

  it('answers 413 past the layout bounds', async () => {
    const nodes = Array.from({ length: 2001 }, (_, i) => ({ id: `n${i}` }));
    const res = await post('/api/v1/diagrams/layout', { nodes });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toContain('2001 nodes');
  });

  it('filters the list by kind', async () => {
    await post('/api/v1/diagrams', { title: 'Seq', kind: 'sequence', svg: EXAMPLE_DIAGRAM });
    await post('/api/v1/diagrams', { title: 'Arch', kind: 'architecture', svg: EXAMPLE_DIAGRAM });
    const list = await (await api('/api/v1/diagrams?kind=sequence')).json();
    expect(list.data.map((d: { title: string }) => d.title)).toEqual(['Seq']);
    expect((await api('/api/v1/diagrams?kind=nonsense')).status).toBe(400);
  });
});
