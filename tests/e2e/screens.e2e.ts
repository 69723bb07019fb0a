/**
 * Every main screen: opened directly by URL (the server falls back to the dashboard for each section), checked
 * with axe-core (no serious or critical violations, light and dark) and captured at 1280×800 in both themes
 * into screenshots/ — empty first, then with content an agent made through the API.
 */
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../server/domains/settings/settings-store.js';
import { DASHBOARD_SECTIONS } from '../../server/surfaces/home/dashboard-paths.js';
import { type Fixtures, makeFixtures } from '../helpers/transcription.js';
import { seriousViolations } from './axe.js';
import { hasChromium, launchChromium } from './browser.js';
import { type E2E, startE2E } from './harness.js';
import { clickText } from './pages.js';
import { captureScreen, setTheme } from './screenshots.js';
import { seedImages, upload } from './seed.js';

let e: E2E;
let fx: Fixtures;
let key: string;

beforeAll(async () => {
  if (!hasChromium) return;
  fx = makeFixtures();
  e = await startE2E({ config: { whisperModel: fx.model } });
  key = await e.srv.createKey({ services: ['assets', 'transcription', 'realtime'] });
}, 180_000);

afterAll(async () => {
  await e?.close();
  fx?.cleanup();
});

/** Waits until loading placeholders are gone and images have loaded. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('.page-title, .gate-title') &&
      !document.querySelector('[aria-busy="true"], .skeleton') &&
      [...document.images].every((img) => img.complete),
  );
  await page.evaluate(() => document.fonts.ready);
}

async function checkScreen(name: string, path?: string): Promise<void> {
  const { page } = e;
  if (path) await e.open(path);
  await settled(page);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    expect(await seriousViolations(page), `${name} (${theme})`).toEqual([]);
  }
  await captureScreen(page, name);
}

const owner = async (path: string) => (await e.srv.as(e.srv.owner)(path)).json();

type Device = { label: string; fallback: string | null } | null | undefined;

/**
 * The device Whisper runs on (issue #23), where the server reports it: a server from before it sends no `device`,
 * and then the screens show none, so these check the text only when the API has it.
 */
async function expectDeviceOnModels(): Promise<void> {
  const { device } = (await owner('/api/v1/models')) as { device?: Device };
  if (!device) return expect(await e.page.$('[data-testid="device-label"]')).toBeNull();
  expect(await e.page.$eval('[data-testid="device-label"]', (el) => el.textContent)).toBe(device.label);
}

async function expectDeviceInSettings(selector: string): Promise<void> {
  const { device } = (await owner('/api/v1/models')) as { device?: Device };
  if (device) expect(await e.page.$eval(selector, (el) => el.textContent)).toContain(device.label);
}

async function expectDeviceOnTranscript(id: string): Promise<void> {
  const { device } = (await owner(`/api/v1/transcripts/${id}`)) as { device?: string | null };
  const terms = await e.page.$$eval('.property dt', (dts) => dts.map((dt) => dt.textContent));
  expect(terms.includes('Device')).toBe(Boolean(device));
}

describe.skipIf(!hasChromium)('main screens', { timeout: 240_000 }, () => {
  it('every section opens directly by URL (the server serves the dashboard for each)', async () => {
    for (const section of DASHBOARD_SECTIONS) {
      await e.open(`/${section}`);
      await e.page.waitForSelector('.page-title');
      expect(await e.page.$eval('.nav-link.active, .page-title', (el) => el.textContent)).toBeTruthy();
    }
  });

  it('empty states: home, assets, transcripts, keys', async () => {
    await checkScreen('home-empty', '/');
    await checkScreen('assets-empty', '/assets');
    await checkScreen('transcripts-empty', '/transcripts');
    await checkScreen('keys-empty-workspace', '/keys');
  });

  it('with content: every main screen in both themes, with no serious accessibility violations', async () => {
    const images = await seedImages(e.srv, key, 6);
    await upload(e.srv, key, 'brief.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf', 'docs');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(fx.speechBytes)], { type: 'audio/wav' }), 'standup.wav');
    const transcript = (await (
      await fetch(`${e.srv.url}/api/v1/transcribe`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { id: string; status: string };
    expect(transcript.status).toBe('completed');
    await e.srv.signIn('waiting@example.com'); // a pending waitlist entry and a sign-in link for the owner

    await checkScreen('home', '/');
    await checkScreen('assets-grid', '/assets');
    await checkScreen('assets-list', '/assets?view=list');
    await checkScreen('asset-detail', `/assets/${images[0]}`);
    await checkScreen('transcripts', '/transcripts');
    await checkScreen('transcript-detail', `/transcripts/${transcript.id}`);
    await expectDeviceOnTranscript(transcript.id);
    await checkScreen('dictation', '/dictation');
    await checkScreen('keys', '/keys');
    await checkScreen('models', '/models');
    await expectDeviceOnModels();
    await checkScreen('workspaces', '/workspaces');
    await checkScreen('access', '/owner');
    await checkScreen('settings', '/settings');
    await expectDeviceInSettings('.properties');
    await checkScreen('profile', '/profile');
    for (const section of ['diagrams', 'charts', 'artifacts']) await checkScreen(section, `/${section}`);
  });

  it('Settings in the desktop app: the transcription device choice, saved through PATCH', async () => {
    const store = settingsFile(join(e.srv.dataDir, 'desktop-settings.json'));
    const { config } = e.srv.server;
    await store.write({ port: Number(new URL(e.srv.url).port), whisperThreads: config.whisperThreads }); // as running: no restart notice
    e.srv.deps.host.instanceSettings = store;
    try {
      await checkScreen('settings-desktop', '/settings');
      const running = ((await owner('/api/v1/settings')) as { running: { whisperDevice?: string } }).running;
      if (!running.whisperDevice) return; // a server from before issue #23 offers no choice
      expect(await e.page.$$eval('.choice-card', (cards) => cards.map((c) => c.textContent))).toEqual([
        expect.stringContaining('Automatic'),
        expect.stringContaining('CPU'),
        expect.stringContaining('GPU'),
      ]);
      await expectDeviceInSettings('[data-testid="device-in-use"]');
      await clickText(e.page, '.choice-card-title', 'CPU');
      await clickText(e.page, 'button', 'Save settings');
      await e.page.waitForFunction(() => document.body.textContent?.includes('Settings saved'));
      expect(
        ((await owner('/api/v1/settings')) as { saved: { whisperDevice?: string } }).saved.whisperDevice,
      ).toBe('cpu');
    } finally {
      e.srv.deps.host.instanceSettings = undefined;
    }
  });

  it('the command palette opens with Ctrl+K, moves between screens, and has no violations', async () => {
    const { page } = e;
    await e.open('/assets', 'Assets');
    await page.keyboard.down('Control');
    await page.keyboard.press('k');
    await page.keyboard.up('Control');
    await page.waitForSelector('.palette-input');
    await page.keyboard.type('models');
    await page.waitForFunction(() => document.querySelectorAll('[role="menuitem"]').length === 1);
    await checkScreen('command-palette');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname === '/models');
  });

  it('keyboard: Tab reaches the sidebar links with a visible focus ring', async () => {
    const { page } = e;
    await e.open('/keys', 'API keys');
    const outlines: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      outlines.push(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle));
    }
    expect(outlines.filter((o) => o !== 'none').length).toBeGreaterThanOrEqual(5);
  });

  it('signed out, / is the plain sign-in prompt; an unapproved session sees the waiting screen', async () => {
    const other = await launchChromium();
    try {
      const page = await other.browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(e.srv.url);
      expect(await page.$('script')).toBeNull();
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Sign in to Folio');
      await page.screenshot({ path: `${(await import('./screenshots.js')).screenshotDir}sign-in-light.png` });
      const link = await e.srv.deps.identity.mintSignInLink('stranger@example.com', e.srv.url, {
        announce: false,
      });
      await page.goto(link);
      await page.waitForSelector('.gate-title');
      expect(await page.$eval('.gate-title', (h) => h.textContent)).toMatch(/waitlist/);
      expect(await page.$eval('.gate-card', (c) => c.textContent)).toContain('stranger@example.com');
      expect(await seriousViolations(page)).toEqual([]);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.screenshot({
          path: `${(await import('./screenshots.js')).screenshotDir}waiting-${theme}.png`,
        });
      }
      await page.click('.gate-card button');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Sign in to Folio');
    } finally {
      await other.close();
    }
  });
});
