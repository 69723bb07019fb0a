// Publishing over MCP: every charts_, diagrams_ and artifacts_ tool called end to end, each checked against its
// REST route, and what it publishes served on its page (private to the owner until a person shares it).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsFromRoutes } from '../../../../server/surfaces/mcp/tools/route-tools.js';
import { namedRoutes } from '../../../../server/surfaces/route-table.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { SLOW_MACHINE } from '../../domains/publishing/render-config.js';
import { callError, called, callOk, connect, type Json } from './harness.js';

const spec = (rows: number[]) => ({
  data: { values: rows.map((r, i) => ({ q: `Q${i + 1}`, r })) },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
});
const artifact = (heading: string) => ({
  children: [
    { type: 'heading', text: heading, level: 1 },
    { type: 'markdown', text: 'Revenue grew **18 %**.' },
  ],
});

let srv: TestServer;
let client: Client;
let bearer: string;
let diagramSvg: string;
const rest = () => srv.as({ bearer });

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE); // renders may queue behind other work on a shared machine
  bearer = await srv.createKey({ services: ['charts', 'diagrams', 'artifacts'] });
  client = await connect(srv, bearer);
  const layout = await callOk(client, 'diagrams_layout', {
    format: 'svg',
    direction: 'right',
    title: 'Checkout',
    nodes: [
      { id: 'web', label: 'Web app' },
      { id: 'api', label: 'API', tone: 'emphasis' },
      { id: 'db', label: 'Orders', shape: 'store' },
    ],
    edges: [
      { from: 'web', to: 'api', label: 'HTTPS' },
      { from: 'api', to: 'db' },
    ],
  });
  expect(layout.nodes.map((n: Json) => n.id).sort()).toEqual(['api', 'db', 'web']);
  diagramSvg = layout.svg;
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

const kinds = [
  {
    kind: 'charts',
    doc: () => ({ spec: spec([120, 160, 150]) }),
    next: () => ({ spec: spec([1, 2, 3, 4]) }),
  },
  {
    kind: 'diagrams',
    doc: () => ({ svg: diagramSvg, kind: 'flowchart' }),
    next: () => ({ svg: diagramSvg }),
  },
  {
    kind: 'artifacts',
    doc: () => ({ document: artifact('Q3 review') }),
    next: () => ({ document: artifact('Q3 review, final') }),
  },
];

describe.each(kinds)('$kind', ({ kind, doc, next }) => {
  it('publish, get, list, update, versions, archive and unarchive answer what REST answers; the page answers', async () => {
    const slug = `mcp-${kind}`;
    const published = await callOk(client, `${kind}_publish`, {
      title: `MCP ${kind}`,
      slug,
      tags: ['mcp'],
      ...doc(),
    });
    expect(published).toMatchObject({
      slug,
      version: 1,
      latestVersion: 1,
      visibility: 'private',
      archived: false,
    });
    expect(await callOk(client, `${kind}_get`, { slug })).toEqual(
      await (await rest()(`/api/v1/${kind}/${slug}`)).json(),
    );
    // the page: private, so it answers the owner's session and nobody else, until a person shares it
    const pagePath = new URL(published.urls.page).pathname;
    const asOwner = await srv.as(srv.owner)(pagePath);
    expect(asOwner.status).toBe(200);
    expect(asOwner.headers.get('content-type')).toMatch(/text\/html/);
    expect(await asOwner.text()).toContain(`MCP ${kind}`);
    expect((await fetch(published.urls.page)).status).toBe(404);
    expect(await callError(client, `${kind}_publish`, { title: 'again', slug, ...doc() })).toMatchObject({
      httpStatus: 409,
    });

    const updated = await callOk(client, `${kind}_update`, { slug, title: `MCP ${kind} v2`, ...next() });
    expect(updated).toMatchObject({ slug, version: 2, latestVersion: 2 });
    expect((await callOk(client, `${kind}_versions`, { slug })).data.map((v: Json) => v.version)).toEqual([
      2, 1,
    ]);
    expect(await callOk(client, `${kind}_get`, { slug, version: 1 })).toMatchObject({
      version: 1,
      title: `MCP ${kind}`,
    });
    expect(await callOk(client, `${kind}_list`, { tag: 'mcp' })).toEqual(
      await (await rest()(`/api/v1/${kind}?tag=mcp`)).json(),
    );

    expect(await callOk(client, `${kind}_archive`, { slug })).toMatchObject({ archived: true });
    expect((await srv.as(srv.owner)(pagePath)).status).toBe(404);
    expect((await callOk(client, `${kind}_list`)).data.map((i: Json) => i.slug)).not.toContain(slug);
    expect(await callOk(client, `${kind}_unarchive`, { slug })).toMatchObject({ archived: false });

    // a key publishes but cannot expose: visibility is not a tool; a person makes it unlisted
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain(`${kind}_visibility`);
    const shared = await srv.as(srv.owner)(`/api/v1/${kind}/${slug}/visibility`, {
      method: 'POST',
      body: JSON.stringify({ visibility: 'unlisted' }),
    });
    expect(shared.status).toBe(200);
    expect((await fetch(published.urls.page)).status).toBe(200);
  });
});

describe('previews and references', () => {
  it('charts_preview renders a spec to SVG and PNG, and refuses a bad one with REST’s pointers', async () => {
    const preview = await callOk(client, 'charts_preview', { spec: spec([3, 1, 2]) });
    expect(preview.svg).toMatch(/^<svg/);
    expect(preview.png).toMatch(/^data:image\/png;base64,/);
    const bad = { spec: { ...spec([1]), mark: 'bogus' } };
    const restBad = await rest()('/api/v1/charts/preview', { method: 'POST', body: JSON.stringify(bad) });
    expect(await callError(client, 'charts_preview', bad)).toEqual({
      httpStatus: restBad.status,
      ...((await restBad.json()) as Json),
    });
  });

  it('diagrams_vocabulary and artifacts_components answer their routes; both are resources too', async () => {
    for (const [tool, path, uri] of [
      ['diagrams_vocabulary', '/api/v1/diagrams/vocabulary', 'folio://diagrams/vocabulary'],
      ['artifacts_components', '/api/v1/artifacts/components', 'folio://artifacts/components'],
    ]) {
      const answer = await (await rest()(path)).json();
      expect(await callOk(client, tool)).toEqual(answer);
      const read = await client.readResource({ uri });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(answer);
    }
    for (const uri of [
      'folio://reference/charts',
      'folio://reference/diagrams',
      'folio://reference/artifacts',
    ]) {
      const read = await client.readResource({ uri });
      expect((read.contents[0] as { text: string }).text).toContain('### Minimal');
    }
  });

  it('diagrams_preview themes an SVG and reports unknown vocabulary; artifacts_validate points at problems', async () => {
    const preview = await callOk(client, 'diagrams_preview', {
      svg: '<svg viewBox="0 0 200 60"><rect class="node wobbly" x="0" y="0" width="120" height="40"/></svg>',
    });
    expect(preview.png).toMatch(/^data:image\/png;base64,/);
    expect(preview.warnings.map((w: Json) => w.message).join(' ')).toMatch(/wobbly/);
    expect(await callOk(client, 'artifacts_validate', { document: artifact('ok') })).toEqual({
      valid: true,
      issues: [],
    });
    const invalid = await callOk(client, 'artifacts_validate', {
      document: { children: [{ type: 'headng', text: 'x' }] },
    });
    expect(invalid.valid).toBe(false);
    expect(invalid.issues[0]).toMatchObject({
      path: '/children/0/type',
      message: expect.stringContaining('heading'),
    });
  });

  it('the publish_chart and draw_diagram prompts are offered with the tools they name', async () => {
    const names = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['publish_chart', 'draw_diagram']));
    const prompt = await client.getPrompt({
      name: 'publish_chart',
      arguments: { data: 'q,r\nQ1,3', title: 'Sales' },
    });
    expect(prompt.messages[0].content).toMatchObject({ text: expect.stringContaining('charts_preview') });
  });

  it('every publishing tool was called above', () => {
    const names = toolsFromRoutes(namedRoutes())
      .map((t) => t.name)
      .filter((n) => /^(charts|diagrams|artifacts)_/.test(n));
    expect(names.length).toBeGreaterThanOrEqual(27);
    expect(names.filter((n) => !called.has(n))).toEqual([]);
  });
});
