/**
 * Chromium (puppeteer-core) on a third-party origin embedding Folio's serve routes and uploading with a grant:
 * <audio> seeks over Range, <img> loads a thumb, fetch+FormData uploads with CORS and no credentials.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, jpeg, wav } from './fixtures.js';
import { type AssetsServer, startAssetsServer } from './harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let s: AssetsServer;
let browser: Browser;
let page: Page;
let thirdParty: Server;
let thirdPartyUrl: string;
let profile: string;
let audioKey: string;
let photoKey: string;
const mediaResponses: { url: string; status: number; range?: string }[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  s = await startAssetsServer();
  audioKey = (await s.upload([filePart(wav(30), 'tone.wav', 'audio/wav')])).json.key;
  photoKey = (await s.upload([filePart(await jpeg(2000, 1500), 'photo.jpg', 'image/jpeg')])).json.key;
  // the "third party": another origin (another port) serving a page that embeds Folio's URLs
  thirdParty = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>third party</title>
      <audio id="a" preload="auto" src="${s.url}/audio/${audioKey}"></audio>
      <img id="i" src="${s.url}/img/thumb/${photoKey}">`);
  });
  await new Promise<void>((r) => thirdParty.listen(0, '127.0.0.1', r));
  thirdPartyUrl = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}/`;
  profile = await mkdtemp(join(tmpdir(), 'folio-chromium-'));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  page = await browser.newPage();
  page.on('response', (res) => {
    if (res.url().includes('/audio/'))
      mediaResponses.push({ url: res.url(), status: res.status(), range: res.request().headers().range });
  });
  await page.goto(thirdPartyUrl);
});

afterAll(async () => {
  await browser?.close();
  thirdParty?.close();
  await s?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

// Needs Debian's chromium (apt-get install chromium); elsewhere set CHROMIUM_PATH. Skipped, visibly, without it.
describe.skipIf(!existsSync(CHROMIUM))('in Chromium, from another origin', () => {
  it('<audio> loads over Range and seeks to three points', async () => {
    const result = await page.evaluate(async () => {
      const audio = document.getElementById('a') as HTMLAudioElement;
      if (audio.readyState < 1)
        await new Promise((r, j) => {
          audio.onloadedmetadata = r;
          audio.onerror = () => j(new Error(`media error ${audio.error?.code}`));
        });
      const positions: number[] = [];
      for (const t of [25, 5, 17.5]) {
        const seeked = new Promise((r) => {
          audio.onseeked = r;
        });
        audio.currentTime = t;
        await seeked;
        positions.push(audio.currentTime);
      }
      return { duration: audio.duration, positions, error: audio.error?.code ?? null };
    });
    expect(result.error).toBeNull();
    expect(result.duration).toBeCloseTo(30, 0);
    expect(result.positions[0]).toBeCloseTo(25, 0);
    expect(result.positions[1]).toBeCloseTo(5, 0);
    expect(result.positions[2]).toBeCloseTo(17.5, 0);
    expect(mediaResponses.some((r) => r.status === 206)).toBe(true);
    expect(mediaResponses.every((r) => r.status === 206 || r.status === 200)).toBe(true);
  });

  it('<img> shows /img/thumb within 256×256', async () => {
    const size = await page.evaluate(async () => {
      const img = document.getElementById('i') as HTMLImageElement;
      if (!img.complete)
        await new Promise((r, j) => {
          img.onload = r;
          img.onerror = j;
        });
      return { w: img.naturalWidth, h: img.naturalHeight };
    });
    expect(size.w).toBeGreaterThan(0);
    expect(size.w).toBeLessThanOrEqual(256);
    expect(size.h).toBeLessThanOrEqual(256);
  });

  it('uploads with a grant through fetch + FormData, with a preflight, no key and no cookies', async () => {
    const minted = await (
      await s.api('/api/v1/uploads/grant', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"tags":["browser"]}',
      })
    ).json();
    const outcome = await page.evaluate(async ({ uploadUrl, grant }) => {
      const form = new FormData();
      form.append('file', new Blob(['made in a browser'], { type: 'text/plain' }), 'browser.txt');
      const send = () =>
        fetch(uploadUrl, { method: 'POST', headers: { Authorization: `Bearer ${grant}` }, body: form });
      const first = await send();
      const second = await send();
      return {
        status: first.status,
        body: await first.json(),
        again: second.status,
        againBody: await second.json(),
        origin: location.origin,
      };
    }, minted);
    expect(outcome.origin).not.toBe(s.url);
    expect(outcome.status).toBe(201);
    expect(outcome.body).toMatchObject({ tags: ['browser'], displayName: 'browser.txt' });
    expect(outcome.again).toBe(410);
    expect(outcome.againBody.error).toMatch(/already used/);
  });

  it('a cross-origin fetch of the API with the page’s ambient credentials is refused by CORS', async () => {
    const outcome = await page.evaluate(async (url) => {
      try {
        await fetch(`${url}/api/v1/assets`, { credentials: 'include' });
        return 'readable';
      } catch {
        return 'blocked';
      }
    }, s.url);
    expect(outcome).toBe('blocked');
  });
});
