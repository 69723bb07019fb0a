// An animated Vega-Lite chart (time encoding) on its published page: the page answers in light and dark, the
// chart runs live in Chromium and its frames move, with no error in the console.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchChromium } from '../../../../helpers/chromium.js';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { vegaLiteExamples } from '../../../../helpers/vega-lite-examples.js';
import { SLOW_MACHINE } from '../render-config.js';

let srv: TestServer;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
beforeAll(async () => {
  srv = await startTestServer({ ...SLOW_MACHINE, limits: { jsonBytes: 8 << 20 } });
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  await srv.close();
});

describe.runIf(chromiumInstalled)('an animated chart page', () => {
  it.each(['light', 'dark'] as const)('runs live and moves in %s', async (scheme) => {
    const example = vegaLiteExamples().find((e) => e.name === 'animated_gapminder')!;
    const api = srv.as({ bearer: await srv.createKey({ services: ['charts'] }) });
    const res = await api('/api/v1/charts', {
      method: 'POST',
      body: JSON.stringify({ title: 'Gapminder', spec: example.spec }),
    });
    expect(res.status).toBe(201);
    const { slug } = await res.json();

    const page = await chromium.browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await page.setCookie({ name: 'folio_session', value: srv.owner.cookie.split('=')[1], url: srv.url });
    const answer = await page.goto(`${srv.url}/c/${slug}`);
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('body.fo-live #fo-chart svg');
    const first = await page.$eval('#fo-chart svg', (svg) => svg.innerHTML);
    // the animation's clock moves the marks; on a busy machine the first tick may take a while
    await page.waitForFunction(
      (before) => document.querySelector('#fo-chart svg')?.innerHTML !== before,
      { timeout: 30_000, polling: 100 },
      first,
    );
    const shots = join(process.env.FOLIO_SCREENSHOTS ?? join(srv.dataDir, 'screenshots'));
    await mkdir(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `animated-chart-${scheme}.png`) });
    expect(errors).toEqual([]);
    await page.close();
  });
});
