/**
 * The Sync screen between two real Folio servers (a desktop one with the dashboard in Chromium, and a "hosted"
 * one), both on ephemeral ports: connect with a key of the hosted one (a refused key explained first), Sync now,
 * the same asset edited on both sides, the conflict shown with the hosted winner and the kept copy, resolved
 * through the UI, and the outcome checked through both APIs. Axe in light and dark; screenshots into screenshots/.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../server/http/viewer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type Json, upload } from '../helpers/sync-pair.js';
import { SLOW_MACHINE } from '../server/domains/publishing/render-config.js';
import { seriousViolations } from './axe.js';
import { hasChromium } from './browser.js';
import { type E2E, startE2E, waitForHeading, waitForText } from './harness.js';
import { button, byText, clickText, fill, toast } from './pages.js';
import { captureScreen, setTheme } from './screenshots.js';

let e: E2E;
let hosted: TestServer;
let hostedKey: string;
let desktopKey: string;

beforeAll(async () => {
  if (!hasChromium) return;
  e = await startE2E();
  hosted = await startTestServer(SLOW_MACHINE);
  hostedKey = (await hosted.createKeyDetails({ services: [...SERVICE_NAMES] })).bearer;
  desktopKey = await e.srv.createKey({ services: [...SERVICE_NAMES] });
}, 180_000);

afterAll(async () => {
  await e?.close();
  await hosted?.close();
});

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton'));
  await page.evaluate(() => document.fonts.ready);
}

async function checkAndCapture(name: string, scrollTo?: string): Promise<void> {
  const { page } = e;
  await settled(page);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    expect(await seriousViolations(page), `${name} (${theme})`).toEqual([]);
  }
  // Toasts fade after a few seconds; the screenshots show the screen, not the last notice.
  await page.waitForFunction(() => !document.querySelector('[data-sonner-toast]'), { timeout: 15_000 });
  if (scrollTo) await page.$eval(scrollTo, (el) => el.scrollIntoView({ block: 'start' }));
  await captureScreen(page, name);
}

async function patchAsset(srv: TestServer, bearer: string, id: string, body: Json) {
  const res = await srv.as({ bearer })(`/api/v1/assets/${id}`, {
    method: 'PATCH',
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

const assetOn = async (srv: TestServer, bearer: string, id: string) =>
  (await (await srv.as({ bearer })(`/api/v1/assets/${id}`)).json()) as Json;

const syncStatus = async () => (await (await e.srv.as(e.srv.owner)('/api/v1/sync/status')).json()) as Json;

/**
 * Presses Sync now and waits until a run that began after the press has finished (in the API, not only a changed
 * text: a relative time ticking over changes it too; an automatic run may have been under way) and the screen shows
 * it; resolves to the run's summary.
 */
async function syncNow(page: Page): Promise<Json> {
  const clickedAt = new Date().toISOString();
  await button(page, 'Sync now');
  let status = await syncStatus();
  const done = (s: Json) => !s.running && s.lastRun && s.lastRun.startedAt >= clickedAt;
  for (const until = Date.now() + 120_000; !done(status); ) {
    if (Date.now() > until) throw new Error(`Sync now: no new run finished (${JSON.stringify(status)})`);
    await new Promise((r) => setTimeout(r, 100));
    status = await syncStatus();
  }
  await page.waitForFunction(
    (finished) => {
      const text = document.querySelector('.sync')?.textContent ?? '';
      return text.includes(finished) && !text.includes('Syncing…');
    },
    {},
    status.lastRun.error ? 'The last run failed' : 'Last run finished',
  );
  return status.lastRun;
}

describe.skipIf(!hasChromium)('sync screen', { timeout: 300_000 }, () => {
  let assetId: string;

  it('is in the navigation; Settings links to it; not yet connected it asks for the hosted URL and a key', async () => {
    const { page } = e;
    await e.open('/settings', 'Settings');
    await clickText(page, 'a', 'Open sync settings');
    await waitForHeading(page, 'Sync');
    expect(
      await page.$eval('nav[aria-label="Folio"] a[href="/sync"]', (a) => a.getAttribute('aria-current')),
    ).toBe('page');
    await waitForText(page, 'Connect to a hosted Folio');
    expect(await page.$('input[name="key"][type="password"]')).not.toBeNull();
    await checkAndCapture('sync-connect');
  });

  it('a key the hosted Folio refuses is explained and nothing is saved', async () => {
    const { page, srv } = e;
    await fill(page, 'Hosted Folio URL', hosted.url);
    await fill(page, 'API key', `fk_${'x'.repeat(32)}`);
    await button(page, 'Test and connect');
    const alert = await byText(page, '[role="alert"]', 'Could not connect');
    expect(await alert.evaluate((el) => el.textContent)).toContain('The hosted Folio refused this key');
    const settings = (await (await srv.as(srv.owner)('/api/v1/sync/settings')).json()) as Json;
    expect(settings).toMatchObject({ remoteUrl: null, keyPrefix: null });
  });

  it('connects with a real key, which is never shown back, and syncs an asset with Sync now', async () => {
    const { page, srv } = e;
    await fill(page, 'API key', hostedKey);
    await button(page, 'Test and connect');
    await toast(page, 'Connected to');
    await waitForText(page, 'Sync this workspace automatically');
    expect(await page.content()).not.toContain(hostedKey);
    expect(await page.$eval('[role="switch"]', (s) => (s as HTMLInputElement).checked)).toBe(true);
    await waitForText(page, 'Never', '.properties');

    assetId = (await upload(srv, desktopKey, 'shared words', 'shared.txt', ['start'])).id;
    await syncNow(page);
    await waitForText(page, '1 change sent', '.callout');
    expect(await assetOn(hosted, hostedKey, assetId)).toMatchObject({ displayName: 'shared.txt' });
    expect(await page.$eval('.properties', (p) => p.textContent)).not.toContain('Never');
    await waitForText(page, 'No conflicts');
    await checkAndCapture('sync-connected');
  });

  it('the opt-in switch turns automatic sync off for this workspace and on again', async () => {
    const { page, srv } = e;
    await page.click('label.switch');
    await toast(page, 'Automatic sync is off');
    expect(((await (await srv.as(srv.owner)('/api/v1/sync/settings')).json()) as Json).enabled).toBe(false);
    await page.click('label.switch');
    await toast(page, 'Automatic sync is on');
    expect(((await (await srv.as(srv.owner)('/api/v1/sync/settings')).json()) as Json).enabled).toBe(true);
  });

  it('the same asset edited on both sides shows one conflict: the hosted winner and the copy kept here', async () => {
    const { page, srv } = e;
    await patchAsset(srv, desktopKey, assetId, { displayName: 'Desktop name', tags: ['desk'] });
    await patchAsset(hosted, hostedKey, assetId, { displayName: 'Web name', tags: ['web'] });
    await syncNow(page);
    await waitForText(page, '1 conflict kept', '.callout');
    const card = await byText(page, '.sync-conflict', 'Web name');
    const rows = await card.$$eval('tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent?.trim())),
    );
    expect(rows).toContainEqual(['Display name', 'Web name', 'Desktop name']);
    expect(rows).toContainEqual(['Tags', 'web', 'desk']);
    const heads = await card.$$eval('thead th', (ths) => ths.map((t) => t.textContent));
    expect(heads[1]).toContain('Hosted version');
    expect(heads[1]).toContain('In use');
    expect(heads[2]).toContain('Your copy');
    expect(heads[2]).toContain('Kept');
    await waitForText(page, '1 to resolve');
    // The hosted edit is what the record is now, on this computer too.
    expect(await assetOn(srv, desktopKey, assetId)).toMatchObject({ displayName: 'Web name', tags: ['web'] });
    await checkAndCapture('sync-conflict', '.sync-conflict');
  });

  it('resolving with “Use my copy” asks first, puts the copy back here, and the next sync sends it', async () => {
    const { page, srv } = e;
    await clickText(page, '.sync-conflict button', 'Use my copy');
    await waitForText(page, 'Your copy replaces the hosted version', '[role="dialog"]');
    await clickText(page, '[role="dialog"] button', 'Cancel');
    await page.waitForFunction(() => !document.querySelector('[role="dialog"]'));
    expect(((await (await srv.as(srv.owner)('/api/v1/sync/conflicts')).json()) as Json).data).toHaveLength(1);

    await clickText(page, '.sync-conflict button', 'Use my copy');
    await clickText(page, '[role="dialog"] button', 'Use my copy');
    await toast(page, 'Resolved “Web name”');
    await waitForText(page, 'No conflicts');
    const all = ((await (await srv.as(srv.owner)('/api/v1/sync/conflicts?status=all')).json()) as Json).data;
    expect(all).toEqual([
      expect.objectContaining({ status: 'resolved', resolution: 'copy', recordId: assetId }),
    ]);
    expect(await assetOn(srv, desktopKey, assetId)).toMatchObject({
      displayName: 'Desktop name',
      tags: ['desk'],
    });

    await syncNow(page);
    expect(await assetOn(hosted, hostedKey, assetId)).toMatchObject({
      displayName: 'Desktop name',
      tags: ['desk'],
    });
    await clickText(page, '[role="radio"], button', 'Resolved');
    await waitForText(page, 'Your copy put back', '.sync-conflict');
    const heads = await page.$$eval('.sync-conflict thead th', (ths) => ths.map((t) => t.textContent));
    expect(heads[1]).toContain('Replaced');
    expect(heads[2]).toContain('Chosen');
    await checkAndCapture('sync-resolved', '.sync-conflict');
  });

  it('a diagram version published on both sides shows both, and the copy comes back as the next version', async () => {
    const { page, srv } = e;
    const svg = (label: string) =>
      `<svg viewBox="0 0 200 60"><rect class="node" x="0" y="0" width="200" height="60"/><text class="label" x="100" y="30">${label}</text></svg>`;
    const send = async (server: TestServer, bearer: string, method: string, path: string, body: Json) => {
      const res = await server.as({ bearer })(path, { method, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    };
    await send(srv, desktopKey, 'POST', '/api/v1/diagrams', {
      title: 'Release flow',
      slug: 'release-flow',
      svg: svg('Plan'),
    });
    expect((await syncNow(page)).errors).toEqual([]);
    await send(srv, desktopKey, 'PUT', '/api/v1/diagrams/release-flow', { svg: svg('Plan, build, ship') });
    await send(hosted, hostedKey, 'PUT', '/api/v1/diagrams/release-flow', { svg: svg('Plan, review, ship') });
    await clickText(page, '[role="radio"], button', 'To resolve');
    await syncNow(page);
    await waitForText(page, '1 conflict kept', '.callout');
    const card = await byText(page, '.sync-conflict', 'Release flow, version 2');
    const rows = await card.$$eval('tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent?.trim())),
    );
    expect(rows).toContainEqual(['Content', 'Plan, review, ship', 'Plan, build, ship']);
    expect(await card.evaluate((el) => el.textContent)).toContain('Diagram version');
    await checkAndCapture('sync-version-conflict', '.sync-conflict');

    await clickText(page, '.sync-conflict button', 'Publish my copy as a new version');
    await waitForText(page, 'the hosted version stays in the history', '[role="dialog"]');
    await clickText(page, '[role="dialog"] button', 'Publish as a new version');
    await toast(page, 'Resolved “Release flow, version 2”');
    const history = async (server: TestServer, bearer: string) =>
      (
        (await (await server.as({ bearer })('/api/v1/diagrams/release-flow/versions')).json()) as Json
      ).data.map((v: Json) => v.version);
    expect(await history(srv, desktopKey)).toEqual([3, 2, 1]);
    expect((await syncNow(page)).errors).toEqual([]);
    expect(await history(hosted, hostedKey)).toEqual([3, 2, 1]);
    const there = await hosted.as(hosted.owner)('/d/release-flow.svg');
    expect(await there.text()).toContain('Plan, build, ship');
  });

  it('an item the hosted Folio refuses is listed with its reason, and the rest syncs', async () => {
    const { page, srv } = e;
    const stranger = await hosted.signInApproved('someone-else@example.com');
    const theirs = await hosted.createKey({ services: ['diagrams'], session: stranger });
    const publish = async (server: TestServer, bearer: string, body: Json) => {
      const res = await server.as({ bearer })('/api/v1/diagrams', {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(201);
    };
    const svg = '<svg viewBox="0 0 120 40"><rect class="node" x="0" y="0" width="120" height="40"/></svg>';
    await publish(hosted, theirs, { title: 'Roadmap', slug: 'roadmap', svg });
    await publish(srv, desktopKey, { title: 'Our roadmap', slug: 'roadmap', svg });
    const run = await syncNow(page);
    expect(run.errors).toEqual([expect.objectContaining({ kind: 'diagram', phase: 'push' })]);
    const row = await byText(page, '.sync table tbody tr', 'roadmap');
    const text = await row.evaluate((el) => el.textContent ?? '');
    expect(text).toContain('Diagram');
    expect(text).toContain('The slug "roadmap" is taken on this Folio');
    await checkAndCapture('sync-item-error', '.sync table');
  });

  it('a key without a service says what it skipped, in words', async () => {
    const { page, srv } = e;
    const noCharts = SERVICE_NAMES.filter((s) => s !== 'charts');
    const key = (await hosted.createKeyDetails({ services: [...noCharts] })).bearer;
    const res = await srv.as(srv.owner)('/api/v1/sync/settings', {
      method: 'PUT',
      body: JSON.stringify({ key }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const chart = {
      title: 'Visits',
      spec: {
        data: { values: [{ d: 'mon', n: 3 }] },
        mark: 'bar',
        encoding: { x: { field: 'd', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } },
      },
    };
    const made = await srv.as({ bearer: desktopKey })('/api/v1/charts', {
      method: 'POST',
      body: JSON.stringify(chart),
    });
    expect(made.status).toBe(201);
    await page.reload();
    await waitForHeading(page, 'Sync');
    await syncNow(page);
    const skipped = await byText(page, '.sync-list li', 'charts service');
    expect(await skipped.evaluate((el) => el.textContent)).toContain('1 chart');
    expect(await page.$$eval('.sync-list li', (lis) => lis.map((li) => li.textContent ?? ''))).toEqual([
      expect.stringContaining(
        '1 chart versionThis key is not enabled for the charts service, so chart version',
      ),
      expect.stringContaining('1 chart'),
    ]);
    await checkAndCapture('sync-skipped', '.sync-list');
  });
});
