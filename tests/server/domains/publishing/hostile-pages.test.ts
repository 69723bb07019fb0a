// Hostile documents against real Chromium: each is refused with a 400 naming the problem, or published and
// loaded as a page where no injected script runs (no marker set, no dialog) and no request leaves for a
// foreign host. The page runs in the sandbox's opaque origin: even our own scripts cannot read the cookie.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchChromium } from '../../../helpers/chromium.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { SLOW_MACHINE } from './render-config.js';

const PWN = `window.__pwned = 1; document.title = 'PWNED'; alert(1); fetch('http://evil.example/x')`;
const CLOSE_SCRIPT = `</script><script>${PWN}</script>`;

let srv: TestServer;
let api: ReturnType<TestServer['as']>;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: Browser;

beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
  api = srv.as({ bearer: await srv.createKey({ services: ['diagrams', 'charts', 'artifacts'] }) });
  chromium = await launchChromium();
  browser = chromium.browser;
}, 120_000);
afterAll(async () => {
  await chromium?.close();
  await srv?.close();
});

type Visit = {
  foreign: string[];
  dialogs: string[];
  pwned: unknown;
  title: string;
  cookie: string;
  errors: string[];
  page: Page;
};

/** Opens `path` as the owner (a cookie in the browser), records foreign requests and dialogs, then checks markers. */
async function visit(path: string, act?: (page: Page) => Promise<void>): Promise<Visit> {
  const page = await browser.newPage();
  const host = new URL(srv.url).host;
  const foreign: string[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  await page.setCookie({ name: 'folio_session', value: srv.owner.cookie.split('=')[1], url: srv.url });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.host !== host) {
      foreign.push(request.url());
      void request.abort();
    } else void request.continue();
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const res = await page.goto(`${srv.url}${path}`, { waitUntil: 'networkidle0' });
  expect(res?.status(), path).toBe(200);
  await act?.(page);
  const state = await page.evaluate(() => {
    let cookie: string;
    try {
      cookie = document.cookie === '' ? 'empty' : 'readable';
    } catch {
      cookie = 'blocked';
    }
    return { pwned: (window as { __pwned?: unknown }).__pwned, title: document.title, cookie };
  });
  return { foreign, dialogs, errors, page, ...state };
}

function expectInert(v: Visit) {
  expect(v.pwned).toBeUndefined();
  expect(v.title).not.toBe('PWNED');
  expect(v.dialogs).toEqual([]);
  expect(v.foreign).toEqual([]);
  expect(v.cookie).toBe('blocked'); // opaque origin: the session cookie is out of reach
}

const SHORT = '</script><b>x</b>';

const refusal = async (path: string, body: Record<string, unknown>) => {
  const { title, ...rest } = body; // previews take no title
  const res = await api(path, {
    method: 'POST',
    body: JSON.stringify(path.endsWith('/preview') ? rest : { title, ...rest }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error: string; issues?: { path: string; message: string }[] },
  };
};

describe.skipIf(!chromiumInstalled)('hostile diagrams', () => {
  const svg = (inner: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 80">${inner}<rect class="node" width="100" height="40"/></svg>`;
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><svg>&lol3;</svg>`;

  it.each([
    ['a script element', svg(`<script>${PWN}</script>`), 'cannot run scripts'],
    [
      'an event handler',
      svg('<rect onmouseover="alert(1)" width="9" height="9"/>'),
      'event handler onmouseover',
    ],
    [
      'an onload on the root',
      `<svg xmlns="http://www.w3.org/2000/svg" onload="${PWN.replace(/'/g, '&apos;')}"><rect/></svg>`,
      'event handler onload',
    ],
    [
      'foreignObject',
      svg(
        '<foreignObject width="9" height="9"><iframe xmlns="http://www.w3.org/1999/xhtml" src="http://evil.example"/></foreignObject>',
      ),
      'foreignObject',
    ],
    [
      'xlink:href="javascript:"',
      svg('<a xlink:href="javascript:alert(1)"><text>click</text></a>'),
      'javascript:alert(1)',
    ],
    [
      'CSS url() to a remote host',
      svg('<rect style="fill: url(http://evil.example/p.png)" width="9" height="9"/>'),
      'points outside the document',
    ],
    ['billion laughs', laughs, 'entity expansion is refused'],
  ])('refuses %s on preview and publish with a 400 naming it', async (_name, body, words) => {
    for (const path of ['/api/v1/diagrams/preview', '/api/v1/diagrams']) {
      const { status, body: answer } = await refusal(path, { title: 'hostile', svg: body });
      expect(status).toBe(400);
      expect(JSON.stringify(answer)).toContain(words);
      expect(answer.issues?.[0].message).toBeTruthy();
    }
  });

  it('renders titles, tags and labels with </script> as text', async () => {
    const res = await api('/api/v1/diagrams', {
      method: 'POST',
      body: JSON.stringify({
        title: `Flow ${CLOSE_SCRIPT}`,
        description: `<img src="http://evil.example/d.png" onerror="${PWN}">`,
        tags: [SHORT],
        svg: svg(
          `<text class="label" x="50" y="20">&lt;/script&gt;&lt;script&gt;${PWN}&lt;/script&gt;</text><a href="https://example.com/docs"><text x="5" y="70">docs</text></a>`,
        ),
      }),
    });
    expect(res.status).toBe(201);
    const { slug } = await res.json();
    const v = await visit(`/d/${slug}`);
    expectInert(v);
    expect(await v.page.$eval('h1', (h) => h.textContent)).toContain('</script>');
    await v.page.close();
  });
});

describe.skipIf(!chromiumInstalled)('hostile charts', () => {
  const bars = (values: unknown[], extra: Record<string, unknown> = {}) => ({
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'q', type: 'nominal' },
      y: { field: 'r', type: 'quantitative' },
      tooltip: [{ field: 'q' }, { field: 'r' }],
    },
    ...extra,
  });

  it.each([
    ['a remote url', { data: { url: 'http://evil.example/data.csv' }, mark: 'bar' }, '/data/url'],
    ['a file path', { data: { url: 'file:///etc/passwd' }, mark: 'bar' }, '/data/url'],
    ['a relative path', { data: { url: '../../secrets.json' }, mark: 'bar' }, '/data/url'],
    [
      'an expression reaching window',
      bars([{ q: 'a', r: 1 }], {
        transform: [{ calculate: "window.location='http://evil.example'", as: 'x' }],
      }),
      '/transform/0/calculate',
    ],
    [
      'an event expression reaching the document',
      bars([{ q: 'a', r: 1 }], { params: [{ name: 'p', expr: 'event.view.document.cookie' }] }),
      '/params/0/expr',
    ],
    [
      'a lookup from a remote url',
      bars([{ q: 'a', r: 1 }], {
        transform: [{ lookup: 'q', from: { data: { url: 'https://evil.example/l.json' }, key: 'q' } }],
      }),
      '/transform/0/from/data/url',
    ],
  ])('refuses %s with a 400 pointing at it', async (_name, spec, pointer) => {
    for (const path of ['/api/v1/charts/preview', '/api/v1/charts']) {
      const { status, body } = await refusal(path, { title: 'hostile', spec });
      expect(status).toBe(400);
      expect(body.issues?.map((i) => i.path)).toContain(pointer);
    }
  });

  it('keeps data and titles with </script> and markup inert on the live page, tooltips included', async () => {
    const values = [
      { q: CLOSE_SCRIPT, r: 3 },
      { q: `<img src="http://evil.example/t.png" onerror="${PWN}">`, r: 5 },
    ];
    const res = await api('/api/v1/charts', {
      method: 'POST',
      body: JSON.stringify({
        title: `Chart ${CLOSE_SCRIPT}`,
        spec: bars(values, { title: CLOSE_SCRIPT, width: 300, height: 200 }),
      }),
    });
    expect(res.status).toBe(201);
    const { slug } = await res.json();
    const v = await visit(`/c/${slug}`, async (page) => {
      await page.waitForSelector('body.fo-live #fo-chart svg');
      const bar = await page.$('#fo-chart .mark-rect path');
      await bar!.hover();
      await page.waitForSelector('#vg-tooltip-element.visible');
    });
    expectInert(v);
    expect(v.errors.filter((e) => /Content Security Policy|unsafe-eval|EvalError/i.test(e))).toEqual([]);
    const tooltip = await v.page.$eval('#vg-tooltip-element', (el) => ({
      text: el.textContent,
      images: el.querySelectorAll('img').length,
    }));
    expect(tooltip.images).toBe(0);
    expect(tooltip.text).toMatch(/script|img/);
    await v.page.close();
  });
});

describe.skipIf(!chromiumInstalled)('hostile artifacts', () => {
  it.each([
    [
      'a javascript: link',
      { type: 'links', items: [{ label: 'x', href: 'javascript:alert(1)' }] },
      '/children/0/items/0/href',
    ],
    ['a script component', { type: 'script', text: PWN }, '/children/0/type'],
    ['an html component', { type: 'html', html: `<script>${PWN}</script>` }, '/children/0/type'],
    ['raw props on a component', { type: 'markdown', text: 'x', html: '<b>x</b>' }, '/children/0'],
    [
      'a style prop',
      { type: 'heading', text: 'x', style: 'background:url(http://evil.example)' },
      '/children/0',
    ],
  ])('refuses %s with a 400 naming the place', async (_name, component, pointer) => {
    const { status, body } = await refusal('/api/v1/artifacts', {
      title: 'hostile',
      document: { children: [component] },
    });
    expect(status).toBe(400);
    expect(body.issues?.map((i) => i.path)).toContain(pointer);
  });

  it('renders text, markdown, tables and code with </script>, raw HTML and javascript: links as inert text', async () => {
    const document = {
      children: [
        { type: 'heading', text: `Report ${CLOSE_SCRIPT}`, level: 1 },
        {
          type: 'markdown',
          text: `Hi <script>${PWN}</script> <img src="http://evil.example/m.png" onerror="${PWN}"> [click](javascript:alert(1)) ![pic](http://evil.example/i.png) [ok](https://example.com)`,
        },
        {
          type: 'callout',
          tone: 'danger',
          title: CLOSE_SCRIPT,
          text: `<iframe src="http://evil.example"></iframe>`,
        },
        {
          type: 'table',
          columns: [{ key: 'a' }],
          rows: [{ a: CLOSE_SCRIPT }, { a: `<img src="http://evil.example/t.png">` }],
        },
        { type: 'code', language: 'html', code: `<script>${PWN}</script>` },
        {
          type: 'timeline',
          items: [{ date: SHORT, title: `<b onclick="${PWN}">x</b>`, text: CLOSE_SCRIPT }],
        },
        {
          type: 'tabs',
          tabs: [
            { label: SHORT, children: [{ type: 'markdown', text: 'one' }] },
            { label: 'two', children: [] },
          ],
        },
      ],
    };
    const res = await api('/api/v1/artifacts', {
      method: 'POST',
      body: JSON.stringify({ title: CLOSE_SCRIPT, tags: [SHORT], document }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { slug } = await res.json();
    const v = await visit(`/a/${slug}`, async (page) => {
      await page.click('[role="tab"]:nth-child(2)'); // the page's own script still runs
    });
    expectInert(v);
    const links = await v.page.$$eval('a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links.filter((href) => href?.startsWith('javascript'))).toEqual([]);
    expect(links).toContain('https://example.com/');
    expect(await v.page.$$eval('iframe, img', (els) => els.length)).toBe(0);
    expect(await v.page.$eval('[role="tab"]:nth-child(2)', (t) => t.getAttribute('aria-selected'))).toBe(
      'true',
    );
    await v.page.close();
  });
});
