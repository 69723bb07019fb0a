/**
 * Dashboard bench, in Debian Chromium against a real server and the built dashboard:
 * 1. JavaScript on the wire for a first load (goal ≤ 300 KB), home and the assets screen;
 * 2. time until the assets screen is interactive with 10,000 assets (goal < 1 s): first cards drawn, then a
 *    click that opens an asset's panel;
 * 3. renderer memory (JS heap, DOM nodes) after scrolling all 10,000, beside a peer: the same 10,000 cards
 *    rendered without virtualization in the same browser.
 * `npx tsx bench/dashboard.ts [--assets 10000] [--rounds 3]`
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { launchChromium } from '../tests/e2e/browser.js';
import { ensureDashboard } from '../tests/e2e/ensure-dashboard.js';
import { startTestServer } from '../tests/helpers/server.js';

const arg = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || fallback;
const count = arg('assets', 10_000);
const rounds = arg('rounds', 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

await ensureDashboard();
const srv = await startTestServer();
const chromium = await launchChromium(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
const work = await mkdtemp(join(tmpdir(), 'folio-bench-dashboard-'));

async function signedInPage(): Promise<Page> {
  const page = await chromium.browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(
    await srv.deps.identity.mintSignInLink(srv.server.config.ownerEmail, srv.url, { announce: false }),
  );
  await page.waitForSelector('nav[aria-label="Folio"]');
  return page;
}

/** Scripts as sent (compressed) for one cold load of `path`: no cache, a new page. */
async function scriptBytes(path: string, ready: string): Promise<{ bytes: number; files: number }> {
  const page = await signedInPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, 0);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId)) scripts.set(e.requestId, e.encodedDataLength);
  });
  await page.goto(`${srv.url}${path}`, { waitUntil: 'networkidle0' });
  await page.waitForSelector(ready);
  await page.close();
  return { bytes: [...scripts.values()].reduce((a, b) => a + b, 0), files: scripts.size };
}

// 1. JavaScript on first load
const home = await scriptBytes('/', '.page-title');
const assetsFirst = await scriptBytes('/assets', '.page-title');
console.log('\nJavaScript on first load (compressed, as sent)      ours           limit');
console.log(
  `  home  (/)                                         ${kb(home.bytes).padEnd(14)} 300 KB   (${home.files} files)`,
);
console.log(
  `  assets (/assets)                                  ${kb(assetsFirst.bytes).padEnd(14)} 300 KB   (${assetsFirst.files} files)`,
);

// 2. 10,000 assets
const { workspaceId } = await srv.createKeyDetails({ services: ['assets'] });
const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3e63dd' } })
  .png()
  .toBuffer();
const source = join(work, 'tile.png');
await (await import('node:fs/promises')).writeFile(source, png);
const seedStart = performance.now();
for (let i = 0; i < count; i++) {
  const path = join(work, `in-${i}.png`);
  await copyFile(source, path);
  await srv.deps.uploads.createFromFile(workspaceId, {
    path,
    filename: `tile-${String(i).padStart(5, '0')}.png`,
    contentType: 'image/png',
  });
}
console.log(
  `\nseeded ${count.toLocaleString()} assets in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
);

const drawn: number[] = [];
const clickToPanel: number[] = [];
for (let r = 0; r < rounds; r++) {
  const page = await signedInPage();
  await page.goto(`${srv.url}/workspaces`);
  await page.waitForSelector('.page-title');
  const start = Date.now();
  await page.goto(`${srv.url}/assets`);
  await page.waitForSelector('.asset-card');
  drawn.push(Date.now() - start);
  const clickAt = Date.now();
  await page.click('.asset-card');
  await page.waitForSelector('aside[aria-label="Asset details"] .properties');
  clickToPanel.push(Date.now() - clickAt);
  await page.close();
}
console.log('\nAssets screen with 10,000 assets (median of', rounds, 'cold loads)  ours        limit');
console.log(
  `  navigation → first cards drawn                          ${`${median(drawn)} ms`.padEnd(11)} 1000 ms`,
);
console.log(
  `  click → asset panel open                                ${`${median(clickToPanel)} ms`.padEnd(11)} 100 ms (feels instant)`,
);

// 3. Memory after scrolling everything
const page = await signedInPage();
await page.goto(`${srv.url}/assets`);
await page.waitForSelector('.asset-card');
const scrollStart = Date.now();
await page.evaluate('globalThis.__name = (f) => f'); // tsx names functions with a helper the page lacks
await page.evaluate(async (total) => {
  const scroller = document.querySelector('[data-testid="asset-scroll"]') as HTMLElement;
  const loaded = () =>
    Number(
      /(\d[\d,]*) asset/.exec(document.querySelector('.toolbar')?.textContent ?? '')?.[1].replace(/,/g, '') ??
        0,
    );
  while (loaded() < total) {
    scroller.scrollTop = scroller.scrollHeight;
    await new Promise((r) => setTimeout(r, 50));
  }
  scroller.scrollTop = scroller.scrollHeight;
  await new Promise((r) => setTimeout(r, 300));
}, count);
const scrollMs = Date.now() - scrollStart;
type Measure = { heapMB: number; nodes: number; elements: number };
const measure = async (p: Page): Promise<Measure> => {
  const cdp = await p.createCDPSession();
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  const elements = await p.evaluate(() => document.getElementsByTagName('*').length);
  return { heapMB: metric('JSHeapUsedSize') / 2 ** 20, nodes: metric('Nodes'), elements };
};
const ours = await measure(page);
const ourCards = await page.$$eval('.asset-card', (c) => c.length);

// Peer: the same cards without virtualization (plain DOM, lazy images), in the same browser.
const peer = await chromium.browser.newPage();
await peer.setContent(
  `<!doctype html><style>ul{display:grid;grid-template-columns:repeat(5,1fr);gap:12px;list-style:none}li{height:212px;border:1px solid #ddd}img{width:100%;height:150px;object-fit:cover}</style><ul>${Array.from(
    { length: count },
    (_, i) =>
      `<li><a href="#${i}"><img loading="lazy" alt="" src="data:,"><span>tile-${i}.png</span><span>image · 0.1 KB</span></a></li>`,
  ).join('')}</ul>`,
);
await peer.evaluate('globalThis.__name = (f) => f');
await peer.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
const naive = await measure(peer);
console.log(
  `\nRenderer after scrolling all ${count.toLocaleString()} assets (${(scrollMs / 1000).toFixed(1)} s to load every page)`,
);
console.log('                         ours (virtualized)     peer: same cards, plain DOM');
console.log(
  `  JS heap                ${`${ours.heapMB.toFixed(1)} MB`.padEnd(22)} ${naive.heapMB.toFixed(1)} MB`,
);
console.log(`  elements in the page   ${String(ours.elements).padEnd(22)} ${naive.elements}`);
console.log(`  DOM nodes (Blink)      ${String(ours.nodes).padEnd(22)} ${naive.nodes}`);
console.log(`  cards in the DOM       ${String(ourCards).padEnd(22)} ${count}`);

await chromium.close();
await srv.close();
await rm(work, { recursive: true, force: true });
