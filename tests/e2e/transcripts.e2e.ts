/**
 * Transcripts with the real whisper.cpp worker on a generated model and espeak-ng speech: upload a clip and play
 * it, the spoken word highlighted and a click on a word seeking there; a long recording through the chunked
 * upload; export; live dictation from a fake microphone fed the same speech.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkerPath } from '../../server/engines/whisper/whisper-engine.js';
import { padTo } from '../helpers/speech.js';
import { type Fixtures, makeFixtures } from '../helpers/transcription.js';
import { hasChromium } from './browser.js';
import { type E2E, startE2E, waitForText } from './harness.js';
import { button, clickText, toast } from './pages.js';

const ready = hasChromium && existsSync(defaultWorkerPath);
let e: E2E;
let fx: Fixtures;
let downloads: string;
let longClip: string;

beforeAll(async () => {
  if (!ready) return;
  fx = makeFixtures();
  longClip = padTo(fx.speech, join(fx.dir, 'long-meeting.wav'), 140); // 4.5 MB: over the /transcribe limit
  downloads = mkdtempSync(join(tmpdir(), 'folio-downloads-'));
  e = await startE2E({
    config: { whisperModel: fx.model },
    chromiumArgs: [
      '--autoplay-policy=no-user-gesture-required',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${fx.speech}`,
    ],
  });
  const cdp = await e.page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
}, 180_000);
afterAll(async () => {
  await e?.close();
  fx?.cleanup();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

async function chooseFiles(paths: string[]) {
  const [chooser] = await Promise.all([
    e.page.waitForFileChooser(),
    button(e.page, 'Transcribe a recording'),
  ]);
  await chooser.accept(paths);
}

// Needs the whisper worker (npm run build:whisper) and Chromium; skipped visibly otherwise.
describe.skipIf(!ready)('transcripts', { timeout: 240_000 }, () => {
  it('transcribes a spoken clip; playing it highlights the word being spoken, and a click on a word seeks to it', async () => {
    const { page } = e;
    await e.open('/transcripts', 'Transcripts');
    await chooseFiles([fx.speech]);
    await page.waitForSelector('.transcript-row .badge-success');
    await page.click('.transcript-row');
    await page.waitForSelector('.reader .word');
    const words = await page.$$eval('.reader .word', (spans) =>
      spans.map((s) => Number((s as HTMLElement).dataset.start)),
    );
    expect(words.length).toBeGreaterThan(0);
    await page.waitForFunction(
      () => (document.querySelector('.reader-audio') as HTMLAudioElement).readyState >= 1,
    );
    const last = words.length - 1;
    const target = (await page.$$('.reader .word'))[last];
    await target.click();
    await page.waitForFunction(
      (start) =>
        Math.abs((document.querySelector('.reader-audio') as HTMLAudioElement).currentTime - start) < 0.5,
      {},
      words[last],
    );
    await page.waitForFunction(
      (i) => document.querySelectorAll('.reader .word')[i].classList.contains('active'),
      {},
      last,
    );
    await page.evaluate(() => {
      const audio = document.querySelector('.reader-audio') as HTMLAudioElement;
      audio.currentTime = 0;
      return audio.play();
    });
    await page.waitForFunction(() => document.querySelector('.reader .word.active') !== null);
  });

  it('exports the transcript as SRT and TXT files', async () => {
    const { page } = e;
    for (const [label, ext] of [
      ['SubRip', 'srt'],
      ['Plain text', 'txt'],
    ]) {
      await button(page, 'Export');
      await clickText(page, '[role="menuitem"]', label);
      await expect
        .poll(() => readdirSync(downloads).some((f) => f.endsWith(`.${ext}`)), { timeout: 10_000 })
        .toBe(true);
    }
  });

  it('a long recording goes up in parts with progress and becomes a transcript', async () => {
    const { page, srv } = e;
    await e.open('/transcripts', 'Transcripts');
    const cdp = await page.createCDPSession();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 3_000_000,
    });
    await chooseFiles([longClip]);
    await page.waitForFunction(() => {
      const value = Number(
        document.querySelector('.upload-item [role="progressbar"]')?.getAttribute('aria-valuenow'),
      );
      return value > 0 && value < 100;
    });
    await waitForText(page, '1 finished', '.upload-tray');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const list = (await (await srv.as(srv.owner)('/api/v1/transcripts')).json()).data;
    expect(list).toHaveLength(2);
    const assets = (await (await srv.as(srv.owner)('/api/v1/assets')).json()).data as {
      displayName: string;
      size: number;
    }[];
    expect(assets.find((a) => a.displayName === 'long-meeting.wav')?.size).toBeGreaterThan(4 << 20);
    // the list shows it live (queued or transcribing, then done); how long Whisper takes is the engine's benchmark
    await page.waitForFunction(() => document.querySelectorAll('.transcript-row').length === 2);
  });

  it('deletes a transcript and its audio after confirmation', async () => {
    const { page, srv } = e;
    await page.click('.transcript-row');
    await page.waitForSelector('.side-panel .badge');
    const id = new URL(page.url()).pathname.split('/').pop();
    await button(page, 'Delete');
    await button(page, 'Delete transcript and audio');
    await toast(page, 'Transcript deleted');
    expect((await srv.as(srv.owner)(`/api/v1/transcripts/${id}`)).status).toBe(404);
  });

  it('dictation: live text from the microphone, kept as a recording and a transcript', async () => {
    const { page, srv } = e;
    await e.open('/dictation', 'Dictation');
    await button(page, 'Start dictation');
    await waitForText(page, 'Listening', '.dictation-status');
    await page.waitForFunction(
      () =>
        document.querySelector(
          '[data-testid="live-transcript"] .partial, [data-testid="live-transcript"] .final',
        ),
      { timeout: 30_000 },
    );
    await button(page, 'New paragraph');
    await page.waitForSelector('[data-testid="live-transcript"] .final', { timeout: 30_000 });
    await button(page, 'Stop and keep');
    await waitForText(page, 'Kept as a recording and a transcript', '.callout');
    await button(page, 'Open transcript');
    await page.waitForFunction(() => location.pathname.startsWith('/transcripts/tr'));
    const id = new URL(page.url()).pathname.split('/').pop();
    const kept = await (await srv.as(srv.owner)(`/api/v1/transcripts/${id}`)).json();
    expect(kept.status).toBe('completed');
  });
});
