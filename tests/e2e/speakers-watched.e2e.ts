/**
 * The transcript reader with speakers (a stereo interview, one voice per channel) and Settings › Watched folders
 * with a folder that imported a recording and failed a file that is not one: checked with axe-core and captured at
 * 1280×800 in light and dark into screenshots/.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../server/domains/settings/settings-store.js';
import { type Fixtures, makeFixtures } from '../helpers/transcription.js';
import { twoVoiceInterview } from '../helpers/two-voices.js';
import { seriousViolations } from './axe.js';
import { hasChromium } from './browser.js';
import { type E2E, startE2E, waitForText } from './harness.js';
import { button, clickText, toast } from './pages.js';
import { captureScreen, setTheme } from './screenshots.js';

let e: E2E;
let fx: Fixtures;
let folder: string;

beforeAll(async () => {
  if (!hasChromium) return;
  fx = makeFixtures();
  folder = await mkdtemp(join(tmpdir(), 'folio-e2e-watched-'));
  e = await startE2E({ config: { whisperModel: fx.model } });
  e.srv.deps.host.instanceSettings = settingsFile(join(fx.dir, 'settings.json'));
}, 180_000);

afterAll(async () => {
  await e?.close();
  fx?.cleanup();
  await rm(folder, { recursive: true, force: true });
});

async function check(name: string): Promise<void> {
  await e.page.evaluate(() => document.fonts.ready);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(e.page, theme);
    expect(await seriousViolations(e.page), `${name} (${theme})`).toEqual([]);
  }
  await captureScreen(e.page, name);
}

/** Words spread evenly over a segment, as the engine gives them. */
function wordsOf(text: string, start: number, end: number) {
  const words = text.split(' ');
  const step = (end - start) / words.length;
  return words.map((word, i) => ({
    word: ` ${word}`,
    start: start + i * step,
    end: start + (i + 1) * step,
    probability: 0.9,
  }));
}

describe.skipIf(!hasChromium)('speakers and watched folders', { timeout: 240_000 }, () => {
  it('the reader names each speaker where their turn starts', async () => {
    const { deps } = e.srv;
    const workspace = await deps.workspaces.personalOf((await deps.identity.ownerId()) as string);
    const said = [
      ['Thanks for coming in today. I would like to hear how the project began.', 'Who took part in it?'],
      [
        'Glad to be here. It began last spring, when three of us met to plan it.',
        'We all typed up recordings by hand.',
      ],
      ['And the hardest part?'],
      ['Testing on real recordings. It took two months before the first release.'],
    ];
    const interview = twoVoiceInterview(
      fx.dir,
      said.map((turn) => turn.join(' ')),
    );
    const asset = await deps.uploads.createFromFile(workspace?.id as string, {
      bytes: readFileSync(interview.stereo),
      filename: 'interview.wav',
    });
    // what the engine stores for this interview, with readable text (the test model's words mean nothing): each
    // turn's sentences share its span by length
    const lines = interview.turns.flatMap((turn, i) => {
      const total = said[i].join(' ').length;
      let at = turn.start;
      return said[i].map((text) => {
        const start = at;
        at += ((turn.end - turn.start) * text.length) / total;
        return [`Speaker ${turn.channel + 1}`, start, at, text] as const;
      });
    });
    const segments = lines.map(([speaker, start, end, text], id) => ({ id, start, end, text, speaker }));
    const transcript = await deps.transcripts.createCompleted(workspace?.id as string, {
      audioAssetId: asset.id,
      source: 'transcribe',
      result: {
        language: 'en',
        duration: interview.turns[interview.turns.length - 1].end + 1,
        text: segments.map((s) => s.text).join(' '),
        segments,
        words: segments.flatMap((s) => wordsOf(s.text, s.start, s.end)),
      },
    });
    await e.open(`/transcripts/${transcript.id}`);
    await e.page.waitForSelector('.segment-speaker');
    const labels = await e.page.$$eval('.segment-speaker', (els) => els.map((el) => el.textContent));
    expect(labels).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 1', 'Speaker 2']);
    await check('transcript-speakers');
  });

  it('Settings adds a folder chosen with the desktop picker, then shows what it imported and what failed', async () => {
    // the desktop shell's bridge (electron/preload.ts), as the app's preload would expose it
    await e.page.evaluateOnNewDocument((path) => {
      Object.assign(window, {
        folio: { appVersion: 'test', revealDataFolder: async () => {}, chooseFolder: async () => path },
      });
    }, folder);
    await e.open('/settings', 'Settings');
    await button(e.page, 'Choose…');
    await e.page.waitForFunction(
      (path) => (document.querySelector('input[name="path"]') as HTMLInputElement | null)?.value === path,
      {},
      folder,
    );
    await clickText(e.page, 'label', 'Write .srt beside');
    await button(e.page, 'Watch folder');
    await toast(e.page, `Watching ${folder}`);
    const [watched] = (await (await e.srv.as(e.srv.owner)('/api/v1/watched-folders')).json()).data;
    expect(watched).toMatchObject({ path: folder, beside: ['srt'], origin: 'settings' });
    await copyFile(fx.speech, join(folder, 'standup.wav'));
    await writeFile(join(folder, 'notes.pdf'), Buffer.from('%PDF-1.4 not audio'));
    await waitForText(e.page, 'notes.pdf', '.watched-failures');
    await waitForText(e.page, '2 imported', '.watched-meta');
    await e.page.$eval('.watched-list', (list) => {
      window.scrollTo(0, 0); // puppeteer's clicks above scrolled the window to reach the buttons
      // the content column scrolls, not the window: bring the section to its top, the sidebar staying put
      const section = list.closest('section') as HTMLElement;
      let scroller = section.parentElement;
      while (scroller && getComputedStyle(scroller).overflowY !== 'auto') scroller = scroller.parentElement;
      if (scroller) scroller.scrollTop += section.getBoundingClientRect().top - 24;
    });
    await check('settings-watched-folders');
  });
});
