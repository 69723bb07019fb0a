// Browser-level checks in real Chromium. DNS rebinding: a page whose name resolves to 127.0.0.1
// (--host-resolver-rules) is same-origin with whatever answers there, so only the Host check stands between its
// script and the API; it must read no API JSON and change nothing, over HTTP or WebSocket. CORS: for random
// Origins no answer allows credentials or reflects the Origin; only the grant upload route answers CORS, with
// `*`; CORS headers that vary with the Origin carry `Vary: Origin`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsClient } from 'ws';
import { SERVICE_NAMES } from '../../../server/http/viewer.js';
import { namedRoutes } from '../../../server/surfaces/route-table.js';
import { chromiumInstalled, launchChromium } from '../../helpers/chromium.js';
import { uploadAsset } from '../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const REBIND_NAMES = ['rebind.test', 'localhost.rebind.test', '127.0.0.1.rebind.test'];

let srv: TestServer;
let port: number;
let key: string;
let assetKey: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: Browser;
let thirdParty: Server;
let thirdPartyPort: number;

beforeAll(async () => {
  srv = await startTestServer();
  port = Number(new URL(srv.url).port);
  key = await srv.createKey({ services: [...SERVICE_NAMES] });
  const assetId = await uploadAsset(srv, key, 'public.txt');
  assetKey = ((await (await srv.as({ bearer: key })(`/api/v1/assets/${assetId}`)).json()) as { key: string })
    .key;
  thirdParty = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi'));
  await new Promise<void>((resolve) => thirdParty.listen(0, '127.0.0.1', resolve));
  thirdPartyPort = (thirdParty.address() as AddressInfo).port;
  if (!chromiumInstalled) return;
  chromium = await launchChromium([
    '--host-resolver-rules=MAP rebind.test 127.0.0.1, MAP *.rebind.test 127.0.0.1',
  ]);
  browser = chromium.browser;
});
afterAll(async () => {
  await chromium?.close();
  thirdParty?.close();
  await srv?.close();
});

type Attempt = { method: string; path: string; headers?: Record<string, string>; body?: string };
type Outcome = Attempt & { status: number; text: string };

/** Runs fetches from inside the page (its own origin), reading whatever the browser lets the script read. */
function fetchFromPage(page: Page, attempts: Attempt[]): Promise<Outcome[]> {
  return page.evaluate(async (list) => {
    const out = [];
    for (const a of list) {
      try {
        const res = await fetch(a.path, {
          method: a.method,
          headers: a.headers,
          body: a.body,
          credentials: 'include',
        });
        out.push({ ...a, status: res.status, text: await res.text() });
      } catch (error) {
        out.push({ ...a, status: 0, text: String(error) });
      }
    }
    return out;
  }, attempts);
}

/** Every route in the table, plus the pages and files a rebinding script would try, with a stolen key. */
function everyRequest(): Attempt[] {
  const auth = { authorization: `Bearer ${key}` };
  const fromTable = namedRoutes().map(({ route }): Attempt => {
    const path = route.path.replace(/:(\w+)/g, 'x');
    const hasBody = route.method !== 'GET' && route.method !== 'OPTIONS' && route.method !== 'DELETE';
    return {
      method: route.method,
      path,
      headers: { ...auth, ...(hasBody && { 'content-type': 'application/json' }) },
      ...(hasBody && { body: JSON.stringify({ name: 'rebound', email: 'victim@example.com' }) }),
    };
  });
  return [
    ...fromTable,
    { method: 'GET', path: '/' },
    { method: 'GET', path: '/health' },
    { method: 'GET', path: `/f/${assetKey}` },
    { method: 'GET', path: '/api/v1/nope' },
    {
      method: 'POST',
      path: '/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"a@b.c"}',
    },
  ];
}

/** What a rebinding script could have changed. */
async function state() {
  const owner = srv.as(srv.owner);
  const read = async (path: string) => (await owner(path)).json();
  return {
    workspaces: await read('/api/v1/workspaces'),
    keys: await read('/api/v1/api-keys'),
    waitlist: await read('/api/v1/waitlist'),
    links: await read('/api/v1/sign-in-links'),
    assets: await (await srv.as({ bearer: key })('/api/v1/assets')).json(),
  };
}

describe.skipIf(!chromiumInstalled)('DNS rebinding from a Chromium page', () => {
  for (const name of REBIND_NAMES) {
    it(`a page at http://${name}:<port>/ reads no API JSON and changes nothing`, async () => {
      const before = await state();
      const page = await browser.newPage();
      try {
        const landing = await page.goto(`http://${name}:${port}/`);
        expect(landing?.status()).toBe(403);
        expect(new URL(page.url()).hostname).toBe(name); // the script below runs in the rebound origin
        const outcomes = await fetchFromPage(page, everyRequest());
        const leaks = outcomes.filter(
          (o) => o.status !== 403 || !/Host not allowed/.test(JSON.parse(o.text || '{}').error ?? ''),
        );
        expect(leaks.map((o) => `${o.method} ${o.path} → ${o.status} ${o.text.slice(0, 80)}`)).toEqual([]);
        expect(outcomes.length).toBeGreaterThan(40);
      } finally {
        await page.close();
      }
      expect(await state()).toEqual(before);
      expect((await fetch(`${srv.url}/health`)).status).toBe(200);
    });
  }

  it('a rebound page cannot open a WebSocket, and the secret it tried stays unused', async () => {
    const minted = (await (
      await srv.as({ bearer: key })('/api/v1/realtime/sessions', { method: 'POST', body: '{}' })
    ).json()) as { clientSecret: { value: string } };
    const secret = minted.clientSecret.value;
    const page = await browser.newPage();
    try {
      await page.goto(`http://rebind.test:${port}/`);
      const result = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve('open');
            ws.onerror = () => resolve('error');
            setTimeout(() => resolve('timeout'), 5_000);
          }),
        `ws://rebind.test:${port}/api/v1/realtime/ws?client_secret=${secret}`,
      );
      expect(result).toBe('error');
    } finally {
      await page.close();
    }
    const opened = await new Promise<string>((resolve) => {
      const ws = new WsClient(`ws://127.0.0.1:${port}/api/v1/realtime/ws?client_secret=${secret}`);
      ws.once('open', () => {
        ws.close();
        resolve('open');
      });
      ws.once('error', (e) => resolve(`error ${e.message}`));
    });
    expect(opened).toBe('open');
  });
});

/** A seeded generator, so a failing Origin can be reproduced. */
function randomOrigins(count: number, seed = 20261123): string[] {
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const label = () => Math.floor(next() * 36 ** 6).toString(36);
  const hosts = () => [
    `${label()}.example`,
    `${label()}.test`,
    'localhost',
    '127.0.0.1',
    '[::1]',
    `127.0.0.1.${label()}.test`,
    `localhost.${label()}.com`,
    `${label()}.localhost`,
    'LOCALHOST',
    '0.0.0.0',
  ];
  const fixed = [
    'null',
    '*',
    `http://127.0.0.1:${port + 1}`,
    `https://127.0.0.1:${port}`,
    `http://127.0.0.1:${port}.evil.test`,
    `http://localhost:${port}@evil.test`,
    'file://',
    'chrome-extension://abcdefghijklmnop',
  ];
  const out = [...fixed];
  while (out.length < count) {
    const scheme = pick(['http', 'https']);
    const withPort = next() < 0.6 ? `:${Math.floor(next() * 65_535) + 1}` : '';
    out.push(`${scheme}://${pick(hosts())}${withPort}`);
  }
  return out;
}

const CORS_PROBES = (): Array<{ label: string; path: string; init: RequestInit; cors?: boolean }> => [
  {
    label: 'preflight for /api/v1/me',
    path: '/api/v1/me',
    init: {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    },
  },
  {
    label: 'preflight for /api/v1/uploads',
    path: '/api/v1/uploads',
    init: { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } },
  },
  {
    label: 'preflight for the grant upload',
    path: '/api/v1/uploads/client',
    cors: true,
    init: {
      method: 'OPTIONS',
      headers: {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    },
  },
  {
    label: 'grant upload without a grant',
    path: '/api/v1/uploads/client',
    cors: true,
    init: { method: 'POST', body: new FormData() },
  },
  {
    label: 'GET /api/v1/me with a key',
    path: '/api/v1/me',
    init: { headers: { authorization: `Bearer ${key}` } },
  },
  {
    label: 'GET /api/v1/me with the cookie',
    path: '/api/v1/me',
    init: { headers: { cookie: srv.owner.cookie } },
  },
  {
    label: 'cookie write',
    path: '/api/v1/workspaces',
    init: {
      method: 'POST',
      headers: { cookie: srv.owner.cookie, 'content-type': 'application/json' },
      body: '{"name":"x"}',
    },
  },
  { label: 'health', path: '/health', init: {} },
  { label: 'openapi', path: '/api/v1/openapi.json', init: {} },
  { label: 'a served file', path: `/f/${assetKey}`, init: {} },
];

const corsHeaders = (res: Response) =>
  [...res.headers.entries()].filter(([name]) => name.startsWith('access-control-')).sort();

describe('CORS for random Origins', () => {
  it('never allows credentials, never reflects the Origin, answers CORS only where it should, with Vary where it varies', async () => {
    const origins = randomOrigins(200);
    const problems: string[] = [];
    const seen = new Map<string, Set<string>>();
    for (const probe of CORS_PROBES()) {
      for (const origin of origins) {
        const headers = new Headers(probe.init.headers);
        headers.set('origin', origin);
        const res = await fetch(`${srv.url}${probe.path}`, { ...probe.init, headers, redirect: 'manual' });
        await res.arrayBuffer();
        const at = `${probe.label} from ${origin}`;
        const allowOrigin = res.headers.get('access-control-allow-origin');
        if (res.headers.has('access-control-allow-credentials')) problems.push(`${at}: allows credentials`);
        if (allowOrigin !== null && allowOrigin === origin && origin !== '*')
          problems.push(`${at}: reflects`);
        if (probe.cors && allowOrigin !== '*') problems.push(`${at}: Allow-Origin ${allowOrigin}, not *`);
        if (!probe.cors && corsHeaders(res).length > 0)
          problems.push(`${at}: CORS headers ${JSON.stringify(corsHeaders(res))}`);
        const vary = (res.headers.get('vary') ?? '').toLowerCase();
        const variants = seen.get(probe.label) ?? new Set<string>();
        variants.add(JSON.stringify([corsHeaders(res), vary.includes('origin')]));
        seen.set(probe.label, variants);
      }
    }
    // a route whose CORS headers differ between Origins must say so to caches
    for (const [label, variants] of seen) {
      const list = [...variants].map((v) => JSON.parse(v) as [string[][], boolean]);
      if (list.length > 1 && list.some(([, varies]) => !varies))
        problems.push(`${label}: CORS headers vary with the Origin without Vary: Origin`);
    }
    expect(problems).toEqual([]);
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  });

  it.skipIf(!chromiumInstalled)(
    'in Chromium, another origin cannot read the API with the cookie, and uploads with a grant only without credentials',
    async () => {
      const grant = (await (
        await srv.as({ bearer: key })('/api/v1/uploads/grant', { method: 'POST', body: '{}' })
      ).json()) as { grant: string; uploadUrl: string };
      const page = await browser.newPage();
      try {
        // the dashboard's cookie, as a signed-in owner's browser has it
        const [name, value] = srv.owner.cookie.split('=');
        await page.setCookie({
          name,
          value,
          domain: '127.0.0.1',
          path: '/',
          httpOnly: true,
          sameSite: 'Lax',
        });
        await page.goto(`http://evil.rebind.test:${thirdPartyPort}/`);
        const result = await page.evaluate(
          async ({ api, uploadUrl, grantSecret }) => {
            const attempt = (p: Promise<Response>) =>
              p.then(
                async (r) => `${r.status} ${await r.text()}`,
                (e) => `blocked ${(e as Error).name}`,
              );
            const form = () => {
              const f = new FormData();
              f.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
              return f;
            };
            const auth = { authorization: `Bearer ${grantSecret}` };
            return {
              me: await attempt(fetch(`${api}/api/v1/me`, { credentials: 'include' })),
              withCredentials: await attempt(
                fetch(uploadUrl, { method: 'POST', headers: auth, body: form(), credentials: 'include' }),
              ),
              withoutCredentials: await attempt(
                fetch(uploadUrl, { method: 'POST', headers: auth, body: form(), credentials: 'omit' }),
              ),
            };
          },
          { api: srv.url, uploadUrl: grant.uploadUrl, grantSecret: grant.grant },
        );
        expect(result.me).toBe('blocked TypeError');
        expect(result.withCredentials).toBe('blocked TypeError');
        expect(result.withoutCredentials).toMatch(/^201 \{/);
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!chromiumInstalled)(
    'in Chromium, another origin reads every answer of the grant upload route, a 429 and its Retry-After included',
    async () => {
      const limited = await startTestServer({
        limits: { rateLimitPerMinute: 60, rateLimitBurst: 3 } as never,
      });
      const page = await browser.newPage();
      try {
        await page.goto(`http://evil.rebind.test:${thirdPartyPort}/`);
        const answers = await page.evaluate(async (uploadUrl) => {
          const out = [];
          for (let i = 0; i < 5; i++) {
            const form = new FormData();
            form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
            try {
              const res = await fetch(uploadUrl, {
                method: 'POST',
                headers: { authorization: 'Bearer fg_expired' },
                body: form,
              });
              out.push({
                status: res.status,
                retryAfter: res.headers.get('retry-after'),
                body: await res.json(),
              });
            } catch (error) {
              out.push({ status: 0, retryAfter: null, body: String(error) });
            }
          }
          return out;
        }, `${limited.url}/api/v1/uploads/client`);
        expect(answers.map((a) => a.status)).not.toContain(0);
        const throttled = answers.find((a) => a.status === 429);
        expect(throttled).toMatchObject({
          retryAfter: expect.stringMatching(/^\d+$/),
          body: { error: expect.any(String) },
        });
        for (const a of answers)
          expect(a.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
      } finally {
        await page.close();
        await limited.close();
      }
    },
  );
});
