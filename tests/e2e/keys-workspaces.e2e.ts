/** API keys (secret once, edit, revoke) and workspaces (create, switch, rename, delete with typed confirmation). */
import type { ElementHandle } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './browser.js';
import { type E2E, startE2E, waitForText } from './harness.js';
import { button, clickText, dialogText, fill, toast } from './pages.js';
import { seedImages } from './seed.js';

let e: E2E;
beforeAll(async () => {
  if (hasChromium) e = await startE2E();
});
afterAll(() => e?.close());

describe.skipIf(!hasChromium)('API keys', { timeout: 240_000 }, () => {
  let secret: string;

  it('creates a key with chosen services and shows its secret once, with a curl example that works', async () => {
    const { page, srv } = e;
    await e.open('/keys', 'API keys');
    await button(page, 'New key');
    await fill(page, 'Name', 'Research agent');
    await clickText(page, 'label', 'charts'); // add charts to the default assets + transcription
    await button(page, 'Create key');
    await waitForText(page, 'This is the only time the secret is shown', '[role="dialog"]');
    const text = await dialogText(page);
    expect(text).toContain('This is the only time the secret is shown');
    secret = await page.$eval('[role="dialog"] pre code', (c) => c.textContent ?? '');
    expect(secret).toMatch(/^fk_/);
    expect(text).toContain(`curl ${srv.url}/api/v1/me`);
    const me = await srv.as({ bearer: secret })('/api/v1/me');
    expect(me.status).toBe(200);
    await button(page, 'I’ve copied it');
    await page.waitForFunction(() => !document.querySelector('[role="dialog"]'));
    await page.reload();
    await waitForText(page, 'Research agent', 'table');
    expect(await page.content()).not.toContain(secret);
    const listed = (await (await srv.as(srv.owner)('/api/v1/api-keys')).json()).data[0];
    expect(listed.services.sort()).toEqual(['assets', 'charts', 'transcription']);
  });

  it('edits a key’s name and services on its page; the removed service is refused on its next call', async () => {
    const { page, srv } = e;
    await clickText(page, 'a.row-link', 'Research agent');
    await page.waitForSelector('aside[aria-label="Key Research agent"]');
    await fill(page, 'Name', 'Renamed agent');
    await clickText(page, 'aside label', 'assets'); // untick assets
    await button(page, 'Save changes');
    await toast(page, 'Key updated');
    await waitForText(page, 'Renamed agent', 'table');
    const refused = await srv.as({ bearer: secret })('/api/v1/assets');
    expect(refused.status).toBe(403);
    expect((await refused.json()).service).toBe('assets');
  });

  it('revokes a key after confirmation; its next request gets 401', async () => {
    const { page, srv } = e;
    await button(page, 'Revoke');
    await page.waitForSelector('[role="dialog"]');
    await button(page, 'Revoke key');
    await toast(page, 'revoked');
    await waitForText(page, 'No API keys yet');
    expect((await srv.as({ bearer: secret })('/api/v1/me')).status).toBe(401);
  });
});

describe.skipIf(!hasChromium)('workspaces', { timeout: 240_000 }, () => {
  it('creates a workspace from the switcher and switches to it: screens show only its content', async () => {
    const { page, srv } = e;
    const key = await srv.createKey({ services: ['assets'] });
    await seedImages(srv, key, 2); // in the personal workspace
    await e.open('/assets', 'Assets');
    await page.waitForSelector('.asset-card');
    await page.click('.ws-switcher');
    await clickText(page, '[role="menuitem"]', 'New workspace');
    await fill(page, 'Name', 'Client work');
    await button(page, 'Create workspace');
    await toast(page, 'Workspace “Client work” created');
    await waitForText(page, 'Client work', '.ws-switcher');
    await waitForText(page, 'Drop files here');
    await page.click('.ws-switcher');
    await clickText(page, '[role="menuitem"]', 'Personal');
    await page.waitForSelector('.asset-card');
  });

  it('renames a workspace and deletes it only after its name is typed', async () => {
    const { page, srv } = e;
    await e.open('/workspaces', 'Workspaces');
    await (await page.waitForSelector('[aria-label="Actions for Client work"]'))!.click(); // the list loads after the heading
    await clickText(page, '[role="menuitem"]', 'Rename');
    await fill(page, 'Name', 'Client archive');
    await button(page, 'Rename');
    await waitForText(page, 'Client archive', '.workspace-name');
    await (await page.waitForSelector('[aria-label="Actions for Client archive"]'))!.click();
    await clickText(page, '[role="menuitem"]', 'Delete');
    const confirm = (await page.waitForFunction(() =>
      [...document.querySelectorAll('[role="dialog"] button')].find((b) =>
        b.textContent?.includes('Delete workspace'),
      ),
    )) as ElementHandle<HTMLButtonElement>;
    expect(await confirm.evaluate((b) => b.disabled)).toBe(true);
    await fill(page, 'Type Client archive to confirm', 'Client archiv');
    expect(await confirm.evaluate((b) => b.disabled)).toBe(true);
    await page.keyboard.type('e');
    await page.waitForFunction((b) => !b.disabled, {}, confirm);
    await confirm.click();
    await toast(page, 'deleted');
    const left = (await (await srv.as(srv.owner)('/api/v1/workspaces')).json()).data;
    expect(left.map((w: { name: string }) => w.name)).toEqual(['Personal']);
  });
});
