// Real Chromium through puppeteer-core, with a fresh profile and the flags every browser test uses.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumInstalled = existsSync(CHROMIUM);

export async function launchChromium(
  extraArgs: string[] = [],
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'folio-chromium-'));
  const browser = await puppeteer.launch({
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
