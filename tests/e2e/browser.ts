/** Debian's Chromium through puppeteer-core, with the project's launch flags and a fresh profile. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export async function launchChromium(
  extraArgs: string[] = [],
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'folio-e2e-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    defaultViewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--font-render-hinting=none',
      `--user-data-dir=${profile}`,
      ...extraArgs,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
