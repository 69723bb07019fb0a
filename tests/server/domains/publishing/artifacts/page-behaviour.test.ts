// The artifact page's own script under its CSP, in Chromium: tables sort, tabs switch by keyboard, and the
// transcript words follow the audio (an uploaded WAV with a completed transcript).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchChromium } from '../../../../helpers/chromium.js';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { SLOW_MACHINE } from '../render-config.js';

let srv: TestServer;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: Browser;
let slug: string;
let errors: string[] = [];

/** A 4 s WAV of silence (sox), uploaded as an audio asset, with a completed transcript of four words. */
async function audioWithTranscript(key: string): Promise<{ asset: string; transcript: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-audio-'));
  const wav = join(dir, 'quiet.wav');
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', wav, 'trim', '0', '4']);
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), 'quiet.wav');
  const res = await fetch(`${srv.url}/api/v1/uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${key}` },
  });
  await rm(dir, { recursive: true, force: true });
  const asset = ((await res.json()) as { id: string }).id;
  const me = (await (await srv.as(srv.owner)('/api/v1/me')).json()) as { workspace: { id: string } };
  const words = ['one', 'two', 'three', 'four'].map((word, i) => ({
    word: ` ${word}`,
    start: i,
    end: i + 0.8,
    probability: 1,
  }));
  const transcript = await srv.deps.transcripts.createCompleted(me.workspace.id, {
    audioAssetId: asset,
    source: 'upload',
    result: {
      language: 'en',
      duration: 4,
      text: 'one two three four',
      segments: [{ id: 0, start: 0, end: 4, text: 'one two three four' }],
      words,
    },
  } as never);
  return { asset, transcript: transcript.id };
}

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
  const key = await srv.createKey({ services: ['artifacts', 'assets', 'transcription'] });
  const { asset, transcript } = await audioWithTranscript(key);
  const document = {
    children: [
      {
        type: 'table',
        columns: [{ key: 'name' }, { key: 'score', format: 'number' }],
        rows: [
          { name: 'b', score: 2 },
          { name: 'c', score: 30 },
          { name: 'a', score: 100 },
        ],
      },
      {
        type: 'tabs',
        tabs: [
          { label: 'First', children: [{ type: 'markdown', text: 'first panel' }] },
          { label: 'Second', children: [{ type: 'markdown', text: 'second panel' }] },
        ],
      },
      { type: 'audio', asset, transcript, title: 'Numbers' },
    ],
  };
  const res = await srv.as({ bearer: key })('/api/v1/artifacts', {
    method: 'POST',
    body: JSON.stringify({ title: 'Behaviour', document }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  slug = ((await res.json()) as { slug: string }).slug;
  if (chromiumInstalled) {
    chromium = await launchChromium();
    browser = chromium.browser;
  }
}, 120_000);
afterAll(async () => {
  await chromium?.close();
  await srv?.close();
});

async function open(): Promise<Page> {
  const page = await browser.newPage();
  errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.setCookie({ name: 'folio_session', value: srv.owner.cookie.split('=')[1], url: srv.url });
  await page.goto(`${srv.url}/a/${slug}`, { waitUntil: 'networkidle0' });
  return page;
}

const column = (page: Page, index: number) =>
  page.$$eval(`.fo-table tbody tr td:nth-child(${index})`, (cells) => cells.map((c) => c.textContent));

describe.skipIf(!chromiumInstalled)('artifact page behaviour', () => {
  it('sorts a table by a column, numbers as numbers, both ways', async () => {
    const page = await open();
    await page.click('.fo-table th:nth-child(2) button');
    expect(await column(page, 2)).toEqual(['2', '30', '100']);
    await page.click('.fo-table th:nth-child(2) button');
    expect(await column(page, 2)).toEqual(['100', '30', '2']);
    expect(await page.$eval('.fo-table th:nth-child(2)', (th) => th.getAttribute('aria-sort'))).toBe(
      'descending',
    );
    await page.click('.fo-table th:nth-child(1) button');
    expect(await column(page, 1)).toEqual(['a', 'b', 'c']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switches tabs with the arrow keys', async () => {
    const page = await open();
    await page.focus('[role="tab"][aria-selected="true"]');
    await page.keyboard.press('ArrowRight');
    const state = await page.$$eval('[role="tabpanel"]', (panels) =>
      panels.map((p) => (p as HTMLElement).hidden),
    );
    expect(state).toEqual([true, false]);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Second');
    await page.close();
  });

  it('highlights the word being spoken as the audio plays or seeks', async () => {
    const page = await open();
    await page.waitForFunction(() => (document.querySelector('audio') as HTMLAudioElement).readyState >= 1);
    await page.evaluate(() => {
      (document.querySelector('audio') as HTMLAudioElement).currentTime = 2.3;
    });
    await page.waitForSelector('.fo-transcript .fo-current');
    expect(await page.$eval('.fo-transcript .fo-current', (w) => w.textContent?.trim())).toBe('three');
    expect(await page.$$eval('.fo-transcript .fo-spoken', (ws) => ws.length)).toBe(2);
    await page.click('.fo-transcript span:nth-child(1)');
    expect(await page.$eval('.fo-transcript .fo-current', (w) => w.textContent?.trim())).toBe('one');
    await page.close();
  });
});
