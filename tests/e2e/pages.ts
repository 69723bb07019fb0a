/** Selectors and small actions on the dashboard, so tests read as what a person does. */
import type { ElementHandle, Page } from 'puppeteer-core';

/** The first element matching `selector` whose text contains `text`. */
export async function byText(page: Page, selector: string, text: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (s, t) => [...document.querySelectorAll(s)].find((e) => e.textContent?.includes(t)),
    {},
    selector,
    text,
  );
  return handle as ElementHandle<Element>;
}

export async function clickText(page: Page, selector: string, text: string): Promise<void> {
  await (await byText(page, selector, text)).click();
}

export const button = (page: Page, text: string) => clickText(page, 'button, a', text);

/** Types into the input labelled `label` (aria-label or its <label>). */
export async function fill(page: Page, label: string, value: string): Promise<void> {
  const input = await page.waitForFunction(
    (l) =>
      [...document.querySelectorAll('input, textarea')].find(
        (e) =>
          e.getAttribute('aria-label') === l ||
          (e as HTMLInputElement).labels?.[0]?.textContent?.trim().startsWith(l),
      ),
    {},
    label,
  );
  const element = input as ElementHandle<HTMLInputElement>;
  await element.click({ count: 3 });
  await element.type(value);
}

export async function dialogText(page: Page): Promise<string> {
  const dialog = await page.waitForSelector('[role="dialog"]');
  return (await dialog!.evaluate((d) => d.textContent)) ?? '';
}

export async function toast(page: Page, text: string): Promise<void> {
  await byText(page, '[data-sonner-toast]', text);
}
