/** Assets: multi-file upload with per-file progress and cancel, thumbnails, filters, tags, detail, delete. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HTTPRequest } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './browser.js';
import { type E2E, startE2E, waitForText } from './harness.js';
import { button, clickText, fill, toast } from './pages.js';
import { noisyPng } from './seed.js';

let e: E2E;
let dir: string;
const files: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  e = await startE2E();
  dir = await mkdtemp(join(tmpdir(), 'folio-e2e-files-'));
  for (let i = 0; i < 3; i++) {
    const path = join(dir, `holiday-${i + 1}.png`);
    await writeFile(path, await noisyPng(i, 900, 700)); // ~1.9 MB each: long enough to be seen in flight
    files.push(path);
  }
  await writeFile(join(dir, 'big.bin'), Buffer.alloc(24 << 20, 7));
});
afterAll(async () => {
  await e?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function chooseFiles(paths: string[]) {
  const [chooser] = await Promise.all([e.page.waitForFileChooser(), button(e.page, 'Upload files')]);
  await chooser.accept(paths);
}

describe.skipIf(!hasChromium)('assets', { timeout: 240_000 }, () => {
  it('uploads several files with a progress bar each, then shows their thumbnails', async () => {
    const { page } = e;
    await e.open('/assets', 'Assets');
    const cdp = await page.createCDPSession();
    // ~1.5 MB/s up, so every file is seen in flight
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1_500_000,
    });
    const seen = new Set<string>();
    const watch = setInterval(() => {
      void page
        .$$eval('.upload-item [role="progressbar"]', (bars) =>
          bars.map((b) => `${b.getAttribute('aria-label')}:${b.getAttribute('aria-valuenow')}`),
        )
        .then((values) => {
          for (const v of values) seen.add(v);
        })
        .catch(() => undefined);
    }, 50);
    await chooseFiles(files);
    await waitForText(page, '3 finished', '.upload-tray');
    clearInterval(watch);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    for (const name of ['holiday-1.png', 'holiday-2.png', 'holiday-3.png']) {
      const values = [...seen]
        .filter((v) => v.startsWith(`Uploading ${name}:`))
        .map((v) => Number(v.split(':')[1]));
      expect(
        values.some((v) => v > 0 && v < 100),
        `${name} progress ${values}`,
      ).toBe(true);
    }
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.asset-card img').length === 3 &&
        [...document.querySelectorAll<HTMLImageElement>('.asset-card img')].every(
          (i) => i.complete && i.naturalWidth > 0,
        ),
    );
    const thumb = await page.$eval('.asset-card img', (i) => ({
      src: (i as HTMLImageElement).src,
      w: (i as HTMLImageElement).naturalWidth,
    }));
    expect(thumb.src).toContain('/img/thumb/');
    expect(thumb.w).toBeLessThanOrEqual(256);
  });

  it('cancels an upload in flight: it is marked cancelled and no asset is created', async () => {
    const { page, srv } = e;
    const cdp = await page.createCDPSession();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 2_000_000,
    });
    await chooseFiles([join(dir, 'big.bin')]);
    await page.waitForFunction(
      () =>
        Number(document.querySelector('.upload-item [role="progressbar"]')?.getAttribute('aria-valuenow')) >
        0,
    );
    await page.click('[aria-label="Cancel big.bin"]');
    await page.waitForSelector('.upload-item.cancelled');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const list = (await (await srv.as(srv.owner)('/api/v1/assets')).json()).data as { filename: string }[];
    expect(list.map((a) => a.filename).sort()).toEqual(['holiday-1.png', 'holiday-2.png', 'holiday-3.png']);
  });

  it('filters by search and type, and switches to the list view', async () => {
    const { page } = e;
    await fill(page, 'Search assets', 'holiday-2');
    await page.waitForFunction(() => document.querySelectorAll('.asset-card').length === 1);
    await page.click('[aria-label="Clear search"]');
    await page.waitForFunction(() => document.querySelectorAll('.asset-card').length === 3);
    await page.click('[aria-label="List"]');
    await page.waitForFunction(
      () => document.querySelectorAll('.asset-line').length === 3 && location.search.includes('view=list'),
    );
  });

  it('opens an asset: preview, tags edited, serve URLs, then deletes it after confirmation', async () => {
    const { page, srv } = e;
    // The preview is held back until the fields below it are measured: loading it must not move them (a click
    // aimed at the tag field would land on the preview's link instead).
    let releasePreview = () => {};
    const previewHeld = new Promise<void>((resolve) => (releasePreview = resolve));
    await page.setRequestInterception(true);
    const hold = (request: HTTPRequest) =>
      request.url().includes('/img/medium/')
        ? void previewHeld.then(() => request.continue())
        : void request.continue();
    page.on('request', hold);
    await clickText(page, '.asset-line', 'holiday-1.png');
    await page.waitForSelector('aside[aria-label="Asset details"] .preview-image img');
    const tagFieldTop = () =>
      page.$eval('input[aria-label="Add to tags"]', (input) => input.getBoundingClientRect().top);
    const before = await tagFieldTop();
    releasePreview();
    await page.waitForFunction(
      () => (document.querySelector('aside .preview-image img') as HTMLImageElement | null)?.naturalWidth,
    );
    expect(await tagFieldTop()).toBe(before);
    page.off('request', hold);
    await page.setRequestInterception(false);
    await fill(page, 'Add to tags', 'launch');
    await page.keyboard.press('Enter');
    await waitForText(page, 'launch', 'aside .tag-list');
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.waitForFunction(
      async (url) => ((await (await fetch(url)).json()) as { tags: string[] }).tags.includes('launch'),
      {},
      `${srv.url}/api/v1/assets/${id}`,
    );
    const urls = await page.$$eval('aside .url-row-value', (links) => links.map((l) => l.textContent));
    expect(urls.some((u) => u?.includes('/img/thumb/'))).toBe(true);
    expect((await fetch(urls[0]!)).status).toBe(200);
    await button(page, 'Delete');
    await button(page, 'Delete asset');
    await toast(page, 'Asset deleted');
    expect((await srv.as(srv.owner)(`/api/v1/assets/${id}`)).status).toBe(404);
  });
});
