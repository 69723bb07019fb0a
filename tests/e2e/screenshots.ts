/** Screenshots of main screens at 1280×800 in light and dark, written to screenshots/ (git-ignored). */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';

export const screenshotDir = fileURLToPath(new URL('../../screenshots/', import.meta.url));

/** Switches the system theme; reduced motion keeps colour transitions from blurring contrast checks. */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMediaFeatures([
    { name: 'prefers-color-scheme', value: theme },
    { name: 'prefers-reduced-motion', value: 'reduce' },
  ]);
  await page.waitForFunction(
    (dark) => document.documentElement.classList.contains('dark') === dark,
    {},
    theme === 'dark',
  );
}

/** Both themes of what the page shows now; leaves the page in light. */
export async function captureScreen(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${screenshotDir}${name}-${theme}.png` });
  }
  await setTheme(page, 'light');
}
