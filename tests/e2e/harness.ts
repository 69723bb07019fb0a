/**
 * One real server (tests/helpers/server.ts) and one Chromium per e2e file, the owner signed in through the
 * one-time link exactly as the desktop app does (README.md, "The dashboard and the desktop app"). Pages wait on
 * what the app shows, never on time.
 */
import type { Browser, Page } from 'puppeteer-core';
import type { ConfigInput } from '../../server/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { launchChromium } from './browser.js';
import { ensureDashboard } from './ensure-dashboard.js';

export type E2E = {
  srv: TestServer;
  browser: Browser;
  page: Page;
  /** Opens a dashboard path and waits until the screen's heading is shown. */
  open(path: string, heading?: string): Promise<void>;
  close(): Promise<void>;
};

export async function startE2E(
  options: { config?: Partial<ConfigInput>; chromiumArgs?: string[] } = {},
): Promise<E2E> {
  await ensureDashboard();
  const srv = await startTestServer(options.config);
  const chromium = await launchChromium(options.chromiumArgs);
  const page = await chromium.browser.newPage();
  page.setDefaultTimeout(45_000); // the VM is shared: waits are on app signals, so a long ceiling costs nothing when things are fast
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  const link = await srv.deps.identity.mintSignInLink(srv.server.config.ownerEmail, srv.url, {
    announce: false,
  });
  await page.goto(link);
  await page.waitForSelector('nav[aria-label="Folio"]');
  return {
    srv,
    browser: chromium.browser,
    page,
    async open(path, heading) {
      await page.goto(`${srv.url}${path}`);
      if (heading) await waitForHeading(page, heading);
    },
    async close() {
      await chromium.close();
      await srv.close();
      if (errors.length) console.warn(`page errors:\n${errors.join('\n')}`);
    },
  };
}

export async function waitForHeading(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) => [...document.querySelectorAll('h1')].some((h) => h.textContent?.trim() === t),
    {},
    text,
  );
}

/** Waits until an element matching `selector` contains `text`. */
export async function waitForText(page: Page, text: string, selector = 'body'): Promise<void> {
  await page.waitForFunction(
    (s, t) => [...document.querySelectorAll(s)].some((e) => e.textContent?.includes(t)),
    {},
    selector,
    text,
  );
}
