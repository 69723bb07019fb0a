/**
 * The transcript screens show what voice activity detection skipped and whether a transcript was translated, and
 * the list's choice sends new recordings to be translated: real Chromium on the built dashboard, a multilingual
 * random model, the real VAD weights. Captured light and dark into screenshots/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layout, layoutWav } from '../../scripts/lib/speech-layout.js';
import { settingsFile } from '../../server/domains/settings/settings-store.js';
import { generateModel, modelPresets } from '../helpers/generate-model.js';
import { type Fixtures, makeFixtures } from '../helpers/transcription.js';
import { seriousViolations } from './axe.js';
import { hasChromium } from './browser.js';
import { type E2E, startE2E } from './harness.js';
import { clickText } from './pages.js';
import { captureScreen, setTheme } from './screenshots.js';

let e: E2E;
let fx: Fixtures;
let key: string;
let recording: Buffer;

beforeAll(async () => {
  if (!hasChromium) return;
  fx = makeFixtures();
  const model = join(fx.dir, 'micro-multilingual.bin');
  generateModel(model, { dims: { ...modelPresets.micro, nVocab: 51865 }, seed: 7 });
  e = await startE2E({ config: { whisperModel: model } });
  key = await e.srv.createKey({ services: ['transcription'] });
  recording = layoutWav(
    layout([{ silence: 12 }, { say: 'Welcome to the weekly planning meeting' }, { silence: 8 }]),
  );
}, 180_000);

afterAll(async () => {
  await e?.close();
  fx?.cleanup();
});

async function transcribe(name: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(recording)], { type: 'audio/wav' }), name);
  const res = await fetch(`${e.srv.url}/api/v1/transcribe`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${key}` },
  });
  return (await res.json()) as { id: string; status: string };
}

const text = (page: Page, selector: string) =>
  page.$eval(selector, (el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '));

async function accessible(page: Page) {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    expect(await seriousViolations(page), theme).toEqual([]);
  }
}

describe.skipIf(!hasChromium)('transcript screens: VAD and translation', () => {
  it('shows the silence VAD skipped and the task, in the list and the detail', async () => {
    const plain = await transcribe('planning.wav', {});
    const translated = await transcribe('réunion.wav', { task: 'translate', vad: 'false' });
    expect([plain.status, translated.status]).toEqual(['completed', 'completed']);

    await e.open('/transcripts');
    await e.page.waitForSelector('.transcript-list');
    const list = await text(e.page, '.transcript-list');
    expect(list).toMatch(/silence skipped/);
    expect(list).toMatch(/translated to English/);
    await accessible(e.page);
    await captureScreen(e.page, 'transcripts-vad');

    await e.open(`/transcripts/${plain.id}`);
    await e.page.waitForSelector('.properties');
    const detail = await text(e.page, '.properties');
    expect(detail).toMatch(/Silence skipped/);
    expect(detail).toMatch(/Transcribed as spoken/);
    expect(detail).toMatch(/of 0:2\d \((8\d|9\d|7\d) %\)/); // most of the 20 s recording is silence
    await accessible(e.page);
    await captureScreen(e.page, 'transcript-detail-vad');

    await e.open(`/transcripts/${translated.id}`);
    await e.page.waitForFunction(() =>
      document.querySelector('.properties')?.textContent?.includes('Translated'),
    );
    expect(await text(e.page, '.properties')).toMatch(/Off \(whole recording transcribed\)/);
    await captureScreen(e.page, 'transcript-detail-translated');
  }, 180_000);

  it('the list’s choice sends a dropped-in recording to be translated', async () => {
    await e.open('/transcripts');
    await e.page.waitForSelector('.transcript-list');
    await clickText(e.page, 'button', 'Transcribe as spoken');
    await clickText(e.page, '[role="option"]', 'Translate to English');
    const file = join(fx.dir, 'standup.wav');
    writeFileSync(file, recording);
    const input = await e.page.waitForSelector('input[type="file"]');
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    const res = await e.srv.as({ bearer: key });
    let task = '';
    for (let i = 0; i < 240 && task !== 'translate'; i++) {
      const list = (await (await res('/api/v1/transcripts?limit=10')).json()) as {
        data: Array<{ task: string; status: string }>;
      };
      const done = list.data.filter((t) => t.status === 'completed');
      if (done.length === 3) task = done[0].task;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(task).toBe('translate');
  }, 180_000);

  it('Settings turns silence skipping off for new transcripts', async () => {
    e.srv.deps.host.instanceSettings = settingsFile(join(fx.dir, 'settings.json'));
    await e.open('/settings');
    await e.page.waitForSelector('input[name="transcription.vadThreshold"]');
    await accessible(e.page);
    await captureScreen(e.page, 'settings-transcription');
    await clickText(e.page, 'label', 'Skip silence');
    await clickText(e.page, 'button', 'Save settings');
    type Saved = { transcription?: { vad?: boolean } } | null;
    const readSaved = async () =>
      ((await (await e.srv.as(e.srv.owner)('/api/v1/settings')).json()) as { saved: Saved }).saved;
    let saved = await readSaved();
    for (let i = 0; i < 80 && saved?.transcription?.vad !== false; i++) {
      await new Promise((r) => setTimeout(r, 250));
      saved = await readSaved();
    }
    expect(saved?.transcription).toEqual({ vad: false, vadThreshold: 0.5 });
    const t = await transcribe('after-settings.wav', {});
    expect((t as unknown as { vad: unknown }).vad).toBeNull();
  }, 180_000);
});
