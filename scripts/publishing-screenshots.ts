// Screenshots of published pages, light and dark, for a designer's eye: a diagram laid out by
// POST /api/v1/diagrams/layout, a chart, and an artifact built from most of the catalog.
//   npx tsx scripts/publishing-screenshots.ts [out-dir]     (default: screenshots/, which git ignores)
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import sharp from 'sharp';
import { createServer } from '../server/app.js';

const out = resolve(process.argv[2] ?? 'screenshots');
const dataDir = await mkdtemp(join(tmpdir(), 'folio-shots-'));
const server = await createServer({ port: 0, dataDir, fsync: false }, () => {});
const { url } = await server.listen();

const signIn = await server.deps.identity.mintSignInLink(server.config.ownerEmail, url);
const cookie = (await fetch(signIn, { redirect: 'manual' })).headers.getSetCookie()[0].split(';')[0];
const call = async (path: string, body?: unknown) => {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const share = (kind: string, slug: string) =>
  call(`/api/v1/${kind}/${slug}/visibility`, { visibility: 'public' });

const layout = await call('/api/v1/diagrams/layout', {
  format: 'svg',
  title: 'Checkout',
  subtitle: 'Services and data stores behind an order',
  groups: [
    { id: 'backend', label: 'Backend' },
    { id: 'data', label: 'Data', parent: 'backend' },
  ],
  nodes: [
    { id: 'customer', label: 'Customer', shape: 'actor' },
    { id: 'web', label: 'Web app', sublabel: 'React' },
    { id: 'api', label: 'API gateway', parent: 'backend', tone: 'emphasis' },
    { id: 'payments', label: 'Payments service', parent: 'backend', tone: 'warn' },
    { id: 'paid', label: 'Paid?', shape: 'decision', parent: 'backend' },
    { id: 'orders', label: 'Orders DB', shape: 'store', parent: 'data' },
    { id: 'events', label: 'Event log', shape: 'store', parent: 'data' },
    { id: 'done', label: 'Confirmation', shape: 'terminal', tone: 'ok' },
    { id: 'declined', label: 'Card declined', shape: 'note', tone: 'error' },
  ],
  edges: [
    { from: 'customer', to: 'web', label: 'checkout' },
    { from: 'web', to: 'api', label: 'HTTPS' },
    { from: 'api', to: 'payments' },
    { from: 'payments', to: 'paid' },
    { from: 'paid', to: 'done', label: 'yes', tone: 'ok' },
    { from: 'paid', to: 'declined', label: 'no', tone: 'error', line: 'dashed' },
    { from: 'api', to: 'orders', head: 'open' },
    { from: 'payments', to: 'events', line: 'dotted' },
  ],
});
const diagram = await call('/api/v1/diagrams', {
  title: 'Checkout architecture',
  description: 'How an order moves from the browser through payments to the order store.',
  kind: 'architecture',
  tags: ['checkout', 'backend'],
  svg: layout.svg,
});

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep'];
const chart = await call('/api/v1/charts', {
  title: 'Monthly revenue by region',
  description: 'Invoiced revenue, net of refunds, in thousands of euros.',
  tags: ['finance'],
  spec: {
    data: {
      values: months.flatMap((m, i) => [
        { month: m, region: 'EU', revenue: 180 + i * 14 + (i % 3) * 9 },
        { month: m, region: 'US', revenue: 150 + i * 11 - (i % 2) * 12 },
        { month: m, region: 'APAC', revenue: 60 + i * 9 },
      ]),
    },
    width: 720,
    height: 320,
    mark: { type: 'line', point: true },
    params: [{ name: 'region', select: { type: 'point', fields: ['region'] }, bind: 'legend' }],
    encoding: {
      x: { field: 'month', type: 'ordinal', sort: null, title: null },
      y: { field: 'revenue', type: 'quantitative', title: 'Revenue (k€)' },
      color: { field: 'region', type: 'nominal', title: 'Region' },
      opacity: { condition: { param: 'region', value: 1 }, value: 0.15 },
      tooltip: [{ field: 'month' }, { field: 'region' }, { field: 'revenue', title: 'Revenue (k€)' }],
    },
  },
});

const photo = await sharp({ create: { width: 1200, height: 500, channels: 3, background: '#3e63dd' } })
  .composite([
    {
      input: Buffer.from(
        '<svg width="1200" height="500"><circle cx="900" cy="120" r="260" fill="#5472e4"/><circle cx="200" cy="520" r="300" fill="#12a594"/></svg>',
      ),
    },
  ])
  .png()
  .toBuffer();
const form = new FormData();
form.append('file', new Blob([photo], { type: 'image/png' }), 'cover.png');
const image = (await (
  await fetch(`${url}/api/v1/uploads`, { method: 'POST', body: form, headers: { cookie, origin: url } })
).json()) as { id: string };

const artifact = await call('/api/v1/artifacts', {
  title: 'Q3 revenue review',
  description: 'Revenue, customers and what changed in the third quarter.',
  tags: ['finance', 'q3'],
  document: {
    children: [
      { type: 'heading', text: 'Q3 revenue review', level: 1, eyebrow: 'Finance · October 2026' },
      {
        type: 'markdown',
        text: 'Revenue grew **18 %** on the quarter, led by *EU* subscriptions. Churn fell for the third quarter running.',
      },
      {
        type: 'grid',
        columns: 3,
        children: [
          { type: 'metric', label: 'Revenue', value: 1240, unit: 'k€', delta: 18, deltaLabel: '% vs Q2' },
          { type: 'metric', label: 'Customers', value: 312, delta: 24, deltaLabel: 'new' },
          {
            type: 'metric',
            label: 'Churn',
            value: 2.1,
            unit: '%',
            delta: -0.4,
            deltaLabel: 'pts',
            goodWhen: 'down',
          },
        ],
      },
      {
        type: 'callout',
        tone: 'warning',
        title: 'Data through 30 September',
        text: 'October figures land next week; EU numbers are provisional.',
      },
      { type: 'heading', text: 'Revenue', level: 2 },
      { type: 'chart', slug: chart.slug, caption: 'Click a region in the legend to highlight it.' },
      {
        type: 'table',
        caption: 'Revenue by region',
        currency: 'EUR',
        columns: [
          { key: 'region', label: 'Region' },
          { key: 'revenue', label: 'Revenue', format: 'currency' },
          { key: 'growth', label: 'Growth', format: 'percent' },
          { key: 'customers', label: 'Customers', format: 'number' },
        ],
        rows: [
          { region: 'EU', revenue: 640000, growth: 0.21, customers: 164 },
          { region: 'US', revenue: 480000, growth: 0.15, customers: 121 },
          { region: 'APAC', revenue: 120000, growth: 0.32, customers: 27 },
        ],
      },
      { type: 'heading', text: 'How an order flows', level: 2 },
      { type: 'diagram', slug: diagram.slug, caption: 'Payments is the one service on the critical path.' },
      {
        type: 'image',
        asset: image.id,
        alt: 'Abstract cover in the brand colours',
        caption: 'The new checkout launched in July.',
      },
      {
        type: 'tabs',
        tabs: [
          {
            label: 'EU',
            children: [
              {
                type: 'markdown',
                text: 'Annual plans drove most of the growth; the July price change held.',
              },
            ],
          },
          {
            label: 'US',
            children: [{ type: 'markdown', text: 'Growth came from two enterprise accounts.' }],
          },
          { label: 'APAC', children: [{ type: 'markdown', text: 'Still small, growing fastest.' }] },
        ],
      },
      {
        type: 'timeline',
        items: [
          { date: 'Jul 3', title: 'Pricing change shipped', tone: 'success' },
          {
            date: 'Aug 14',
            title: 'EU checkout outage (2 h)',
            tone: 'danger',
            text: 'Card payments failed; refunds issued the same day.',
          },
          { date: 'Sep 30', title: 'Quarter closed' },
        ],
      },
      {
        type: 'accordion',
        items: [
          {
            title: 'How revenue is counted',
            open: true,
            children: [
              { type: 'markdown', text: 'Invoiced revenue net of refunds, converted at month-end rates.' },
            ],
          },
          {
            title: 'Query behind the table',
            children: [
              {
                type: 'code',
                language: 'sql',
                code: "select region, sum(revenue) as revenue\nfrom invoices\nwhere quarter = '2026-Q3'\ngroup by region;",
              },
            ],
          },
        ],
      },
      {
        type: 'links',
        style: 'buttons',
        items: [
          { label: 'Open the finance dashboard', href: 'https://example.com/finance' },
          { label: 'Email the finance team', href: 'mailto:finance@example.com' },
        ],
      },
    ],
  },
});

for (const [kind, item] of [
  ['diagrams', diagram],
  ['charts', chart],
  ['artifacts', artifact],
] as const)
  await share(kind, item.slug);

await mkdir(out, { recursive: true });
const profile = await mkdtemp(join(tmpdir(), 'folio-shots-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--user-data-dir=${profile}`,
  ],
});
const pages = { diagram: `/d/${diagram.slug}`, chart: `/c/${chart.slug}`, artifact: `/a/${artifact.slug}` };
for (const [name, path] of Object.entries(pages)) {
  for (const scheme of ['light', 'dark'] as const) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle0' });
    if (name === 'chart') await page.waitForSelector('body.fo-live #fo-chart svg');
    // lazy images load as they scroll into view; a full-page shot does not scroll, so load them now
    await page.evaluate(() => {
      for (const img of document.querySelectorAll('img')) img.loading = 'eager';
    });
    await page.waitForFunction(
      () => [...document.images].every((img) => img.complete && img.naturalWidth > 0),
      { timeout: 60_000 },
    );
    await page.evaluate(() =>
      Promise.all([...document.images].map((img) => img.decode().catch(() => undefined))),
    );
    const file = join(out, `${name}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
    await page.close();
  }
}
await browser.close();
await rm(profile, { recursive: true, force: true });
await server.close();
await rm(dataDir, { recursive: true, force: true });
