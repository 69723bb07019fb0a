// MCP Apps: the publish and preview tools name a UI resource; the SDK client reads it, and the HTML renders the
// chart in real Chromium inside a sandboxed frame driven by the ext-apps AppBridge (as a host does), under the
// pages' CSP: nothing loads, the view cannot reach Folio's API. Charts are the stub in stub-charts.ts until the
// publishing branch lands with the real ones.
import { fileURLToPath } from 'node:url';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchChromium } from '../../helpers/chromium.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { connect } from './harness.js';
import { stubCharts } from './stub-charts.js';

const spec = {
  mark: 'bar',
  data: {
    values: [
      { category: 'Q1', value: 12 },
      { category: 'Q2', value: 30 },
      { category: 'Q3', value: 21 },
    ],
  },
};

let srv: TestServer;
let client: Client;
beforeAll(async () => {
  srv = await startTestServer({}, { extraCapabilities: [stubCharts] });
  client = await connect(srv, await srv.createKey({ services: ['charts'] }));
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

describe('MCP Apps views', () => {
  it('charts_publish and charts_preview name the chart view; a key without charts sees neither', async () => {
    for (const name of ['charts_publish', 'charts_preview']) {
      const { uri, content } = await viewOf(name);
      expect(uri).toBe('ui://folio/chart.html');
      expect(content).toMatchObject({
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      });
    }
    const other = await connect(srv, await srv.createKey({ services: ['assets'] }));
    expect((await other.listTools()).tools.map((t) => t.name)).not.toContain('charts_publish');
    expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain('ui://folio/chart.html');
    await other.close();
  });

  it('the view declares the pages’ CSP: nothing loads from anywhere, inline code only by hash', async () => {
    const { content } = await viewOf('charts_publish');
    const csp = (
      /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(content.text)?.[1] ?? ''
    ).replaceAll('&#39;', "'");
    const directives = Object.fromEntries(
      csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(directives).toMatchObject({
      'default-src': "'none'",
      'connect-src': "'none'",
      'img-src': 'data:',
      'frame-src': "'none'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
    });
    expect(directives['script-src']).toMatch(/^'sha256-[A-Za-z0-9+/=]+'$/);
    expect(directives['style-src']).toMatch(/^'sha256-[A-Za-z0-9+/=]+'$/);
  });
});

describe.skipIf(!chromiumInstalled)('the chart view in Chromium', () => {
  it('renders a published chart (asking charts_preview through the host) and cannot reach Folio', async () => {
    const published = (await client.callTool({
      name: 'charts_publish',
      arguments: { title: 'Revenue by quarter', spec },
    })) as CallToolResult;
    expect(published.isError).toBeFalsy();
    const { content } = await viewOf('charts_publish');
    const host = await build({
      entryPoints: [fileURLToPath(new URL('./apps-host.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const chromium = await launchChromium();
    try {
      const page = await chromium.browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      const calls: string[] = [];
      await page.exposeFunction('folioCallTool', async (name: string, args: Record<string, unknown>) => {
        calls.push(name);
        return client.callTool({ name, arguments: args });
      });
      await page.exposeFunction('folioOpenLink', async () => {});
      await page.setContent(
        `<!doctype html><html><body><script>${host.outputFiles[0].text}</script></body></html>`,
      );
      await page.evaluate(
        (html, input, result) => window.showView(html, input, result),
        content.text,
        { title: 'Revenue by quarter', spec },
        published as never,
      );
      const frame = page.frames().find((f) => f !== page.mainFrame());
      if (!frame) throw new Error('no view frame');
      await frame.waitForSelector('main[data-state="rendered"] img#fo-picture', { timeout: 20_000 });
      const img = await frame.evaluate(async () => {
        const el = document.querySelector('img#fo-picture') as HTMLImageElement;
        await el.decode();
        return {
          width: el.naturalWidth,
          height: el.naturalHeight,
          src: el.src.slice(0, 22),
          title: document.querySelector('h1')?.textContent,
        };
      });
      expect(img).toEqual({
        width: 220,
        height: 250,
        src: 'data:image/png;base64,',
        title: 'Revenue by quarter',
      });
      expect(calls).toEqual(['charts_preview']);
      // the pixels are the chart: a bar's blue in the middle of the middle bar
      const shot = await (await frame.$('img#fo-picture'))!.screenshot({ encoding: 'binary' });
      const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [
        ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
      ];
      expect(at(110, 120)).toEqual([0x3e, 0x63, 0xdd]); // inside the Q2 bar
      expect(at(5, 5)).toEqual([255, 255, 255]); // the chart's background
      expect(problems).toEqual([]); // the view rendered without breaking its CSP or throwing
      // under the pages' CSP the view can reach nothing, least of all Folio's API
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
      await chromium.close();
    }
  });
});
