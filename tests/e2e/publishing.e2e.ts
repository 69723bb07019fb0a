/**
 * Charts (and through the same screens, diagrams and artifacts): publish with a key, see it in the dashboard,
 * switch versions, change visibility, archive. Publishing is built on another branch: until its routes are in
 * the route table these tests are skipped, with the reason printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedRoutes } from '../../server/surfaces/route-table.js';
import { hasChromium } from './browser.js';
import { type E2E, startE2E, waitForText } from './harness.js';
import { clickText, toast } from './pages.js';
import { captureScreen } from './screenshots.js';

const publishing = namedRoutes().some((r) => r.route.method === 'POST' && r.route.path === '/api/v1/charts');
if (!publishing)
  console.warn(
    'publishing e2e skipped: POST /api/v1/charts is not in the route table yet (publishing lands on another branch)',
  );

let e: E2E;
let key: string;
const spec = (title: string, values: number[]) => ({
  title,
  spec: {
    mark: 'bar',
    encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'v', type: 'quantitative' } },
    data: { values: values.map((v, i) => ({ q: `Q${i + 1}`, v })) },
  },
});

beforeAll(async () => {
  if (!hasChromium || !publishing) return;
  e = await startE2E();
  key = await e.srv.createKey({ services: ['charts'] });
});
afterAll(() => e?.close());

describe.skipIf(!hasChromium || !publishing)('publishing', { timeout: 240_000 }, () => {
  it('a chart an agent published shows with its preview; versions switch; visibility and archive change', async () => {
    const { page, srv } = e;
    const agent = srv.as({ bearer: key });
    const created = await (
      await agent('/api/v1/charts', {
        method: 'POST',
        body: JSON.stringify({ ...spec('Revenue', [3, 5, 8]), slug: 'revenue-e2e' }),
      })
    ).json();
    expect(created.slug).toBe('revenue-e2e');
    await agent('/api/v1/charts/revenue-e2e', {
      method: 'PUT',
      body: JSON.stringify(spec('Revenue (final)', [3, 5, 9])),
    });
    await e.open('/charts', 'Charts');
    await clickText(page, 'a.row-link', 'Revenue (final)');
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.publication-preview img')].some(
        (i) => i.complete && i.naturalWidth > 0,
      ),
    );
    await captureScreen(page, 'chart-detail');
    await clickText(page, '.version-item', 'v1');
    await page.waitForFunction(() =>
      document.querySelector('.publication-preview img')?.getAttribute('src')?.includes('version=1'),
    );
    expect((await fetch(`${srv.url}/c/revenue-e2e`)).status).toBe(404); // private by default
    await clickText(page, '.visibility-option', 'Public');
    await toast(page, 'Now public');
    expect((await fetch(`${srv.url}/c/revenue-e2e`)).status).toBe(200);
    await clickText(page, 'button', 'Archive');
    await toast(page, 'Archived');
    expect((await fetch(`${srv.url}/c/revenue-e2e`)).status).toBe(404);
    await e.open('/charts', 'Charts');
    await waitForText(page, 'No charts yet');
    await clickText(page, 'label', 'Show archived');
    await waitForText(page, 'Revenue (final)', 'table');
  });
});
