// MCP Apps: the publish and preview tools name a UI resource; the SDK client reads it, and its HTML renders real
// charts and diagrams in Chromium, inside a sandboxed frame driven by the ext-apps AppBridge (as a host does),
// under the published pages' CSP: nothing loads, and the view cannot reach Folio's API.
import { fileURLToPath } from 'node:url';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchChromium } from '../../../helpers/chromium.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { SLOW_MACHINE } from '../../domains/publishing/render-config.js';
import { callOk, connect, type Json } from './harness.js';

const spec = {
  data: {
    values: [
      { q: 'Q1', r: 120 },
      { q: 'Q2', r: 160 },
      { q: 'Q3', r: 150 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
};

let srv: TestServer;
let client: Client;
beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE); // renders may queue behind other work on a shared machine
  client = await connect(srv, await srv.createKey({ services: ['charts', 'diagrams', 'artifacts'] }));
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

async function viewOf(toolName: string) {
  const tool = (await client.listTools()).tools.find((t) => t.name === toolName);
  const uri = tool && getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${toolName} names no UI resource`);
  const read = await client.readResource({ uri });
  return {
    uri,
    content: read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: unknown },
  };
}

type Csp = Record<string, string[]>;
const parseCsp = (csp: string): Csp =>
  Object.fromEntries(
    csp
      .replaceAll('&#39;', "'")
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
const cspOfView = (html: string) =>
  parseCsp(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '');

describe('MCP Apps views', () => {
  it('each kind’s publish and preview tools name its view; a key without the service sees neither', async () => {
    const expected: Record<string, string> = {
      charts_publish: 'ui://folio/chart.html',
      charts_update: 'ui://folio/chart.html',
      charts_get: 'ui://folio/chart.html',
      charts_preview: 'ui://folio/chart.html',
      diagrams_publish: 'ui://folio/diagram.html',
      diagrams_preview: 'ui://folio/diagram.html',
      diagrams_layout: 'ui://folio/diagram.html',
      artifacts_publish: 'ui://folio/artifact.html',
    };
    for (const [name, uri] of Object.entries(expected)) {
      const view = await viewOf(name);
      expect(view.uri, name).toBe(uri);
      expect(view.content).toMatchObject({
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      });
    }
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === 'charts_list')?._meta).toBeUndefined();
    const other = await connect(srv, await srv.createKey({ services: ['assets'] }));
    expect((await other.listTools()).tools.map((t) => t.name)).not.toContain('charts_publish');
    expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain('ui://folio/chart.html');
    await other.close();
  });

  it('the view is under the CSP of the /c pages, stricter where it loads nothing', async () => {
    const chart = await callOk(client, 'charts_publish', { title: 'CSP check', spec });
    const page = await srv.as(srv.owner)(new URL(chart.urls.page).pathname); // private: the owner's session sees it
    expect(page.status).toBe(200);
    const pageCsp = parseCsp(page.headers.get('content-security-policy') ?? '');
    const viewCsp = cspOfView((await viewOf('charts_publish')).content.text);
    for (const directive of [
      'default-src',
      'connect-src',
      'font-src',
      'frame-src',
      'object-src',
      'base-uri',
      'form-action',
    ])
      expect(viewCsp[directive], directive).toEqual(pageCsp[directive]);
    expect(viewCsp['img-src']).toEqual(['data:']);
    expect(pageCsp['img-src']).toContain('data:');
    expect(viewCsp['media-src']).toEqual(["'none'"]);
    for (const directive of ['script-src', 'style-src'])
      expect(
        viewCsp[directive].every((s) => /^'sha256-[A-Za-z0-9+/=]+'$/.test(s)),
        directive,
      ).toBe(true);
    // a meta tag cannot carry `sandbox`: the host sandboxes the view's frame (without allow-same-origin) itself
    expect(pageCsp.sandbox).toBeDefined();
  });
});

describe.skipIf(!chromiumInstalled)('views in Chromium', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let hostScript: string;
  beforeAll(async () => {
    chromium = await launchChromium();
    const bundled = await build({
      entryPoints: [fileURLToPath(new URL('./apps-host.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    hostScript = bundled.outputFiles[0].text;
  });
  afterAll(() => chromium?.close());

  /** Opens `toolName`'s view for `result` in a host page; answers the page, its view frame and what it saw. */
  async function show(toolName: string, input: Json, result: CallToolResult) {
    const { content } = await viewOf(toolName);
    const page: Page = await chromium.browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    page.on('pageerror', (e) => problems.push(String(e)));
    const forwarded: Array<{ name: string; result: CallToolResult }> = [];
    await page.exposeFunction('folioCallTool', async (name: string, args: Json) => {
      const answer = (await client.callTool({ name, arguments: args })) as CallToolResult;
      forwarded.push({ name, result: answer });
      return answer;
    });
    await page.exposeFunction('folioOpenLink', async () => {});
    await page.setContent(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
    await page.evaluate((html, i, r) => window.showView(html, i, r), content.text, input, result as never);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('no view frame');
    await frame.waitForSelector(
      'main[data-state="rendered"], main[data-state="linked"], main[data-state="error"]',
      {
        timeout: 30_000,
      },
    );
    await frame.evaluate(() => document.querySelector('img')?.decode());
    if (process.env.FOLIO_SHOTS)
      await page.screenshot({ path: `${process.env.FOLIO_SHOTS}/${toolName}-host.png` });
    return { page, frame, problems, forwarded };
  }

  async function picture(frame: Awaited<ReturnType<typeof show>>['frame']) {
    return frame.evaluate(async () => {
      const img = document.querySelector('img#fo-picture') as HTMLImageElement | null;
      await img?.decode();
      return {
        state: document.querySelector('main')?.dataset.state,
        title: document.querySelector('h1')?.textContent,
        width: img?.naturalWidth,
        height: img?.naturalHeight,
        src: img?.src,
      };
    });
  }

  it('renders a published chart with the PNG charts_preview makes for it, and cannot reach Folio', async () => {
    const input = { title: 'Revenue by quarter', spec };
    const published = (await client.callTool({ name: 'charts_publish', arguments: input })) as CallToolResult;
    const { page, frame, problems, forwarded } = await show('charts_publish', input, published);
    try {
      expect(forwarded.map((f) => f.name)).toEqual(['charts_preview']);
      const preview = forwarded[0].result.structuredContent as Json;
      expect(await picture(frame)).toEqual({
        state: 'rendered',
        title: 'Revenue by quarter',
        width: preview.pngWidth,
        height: preview.pngHeight,
        src: preview.png,
      });
      // the pixels are the chart: bars in the light theme's first colour (charts/chart-theme.ts) are on screen
      const shot = await (await frame.$('img#fo-picture'))!.screenshot({ encoding: 'binary' });
      const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
      let bar = 0;
      for (let i = 0; i < data.length; i += info.channels)
        if (
          Math.abs(data[i] - 0x3e) < 12 &&
          Math.abs(data[i + 1] - 0x63) < 12 &&
          Math.abs(data[i + 2] - 0xdd) < 12
        )
          bar++;
      if (process.env.FOLIO_SHOTS) await sharp(shot).toFile(`${process.env.FOLIO_SHOTS}/mcp-chart-view.png`);
      expect(bar).toBeGreaterThan(500);
      expect(problems).toEqual([]); // rendered without breaking its CSP or throwing
      const reach = await frame.evaluate(
        (url) =>
          fetch(`${url}/api/v1/me`).then(
            () => 'fetched',
            () => 'blocked',
          ),
        srv.url,
      );
      expect(reach).toBe('blocked');
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.every((p) => p.includes('/api/v1/me') && /Content Security Policy/.test(p))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('renders a chart preview as it is, without another call', async () => {
    const input = { spec };
    const preview = (await client.callTool({ name: 'charts_preview', arguments: input })) as CallToolResult;
    const { page, frame, forwarded, problems } = await show('charts_preview', input, preview);
    try {
      expect(forwarded).toEqual([]);
      expect((await picture(frame)).src).toBe((preview.structuredContent as Json).png);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('renders a diagram laid out by diagrams_layout and published, through diagrams_preview', async () => {
    const layout = await callOk(client, 'diagrams_layout', {
      format: 'svg',
      direction: 'right',
      nodes: [
        { id: 'web', label: 'Web app' },
        { id: 'api', label: 'API' },
      ],
      edges: [{ from: 'web', to: 'api', label: 'HTTPS' }],
    });
    const input = { title: 'Checkout', kind: 'flowchart', svg: layout.svg };
    const published = (await client.callTool({
      name: 'diagrams_publish',
      arguments: input,
    })) as CallToolResult;
    expect(published.isError).toBeFalsy();
    const { page, frame, forwarded, problems } = await show('diagrams_publish', input, published);
    try {
      expect(forwarded.map((f) => f.name)).toEqual(['diagrams_preview']);
      const shown = await picture(frame);
      expect(shown).toMatchObject({ state: 'rendered', title: 'Checkout' });
      expect(shown.src).toBe((forwarded[0].result.structuredContent as Json).png);
      expect(shown.width).toBeGreaterThan(100);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows a published artifact’s title and a link to its page (no artifact preview tool exists)', async () => {
    const input = {
      title: 'Q3 review',
      document: { children: [{ type: 'heading', text: 'Q3 review', level: 1 }] },
    };
    const published = (await client.callTool({
      name: 'artifacts_publish',
      arguments: input,
    })) as CallToolResult;
    expect(published.isError).toBeFalsy();
    const { page, frame, forwarded, problems } = await show('artifacts_publish', input, published);
    try {
      expect(forwarded).toEqual([]);
      expect(await picture(frame)).toMatchObject({ state: 'linked', title: 'Q3 review' });
      expect(await frame.$eval('footer button', (b) => b.textContent)).toBe('Open page');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
