// docs/security.md: the Host allow-list, the exact Origin on cookie writes, rate and size limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadAsset } from '../../helpers/factories.js';
import { rawGet, rawRequest } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let srv: TestServer;
let port: number;
let key: string;
beforeAll(async () => {
  srv = await startTestServer();
  port = Number(new URL(srv.url).port);
  key = await srv.createKey({ services: ['assets'] });
});
afterAll(() => srv.close());

/** [label, header lines, target]: every one must get 403 before authentication or routing. */
function hostileRequests(p: number): Array<[string, string[], string?, string?]> {
  const hosts = [
    'evil.example',
    `evil.example:${p}`,
    'localhost.evil.com',
    `localhost.evil.com:${p}`,
    `127.0.0.1.nip.io:${p}`,
    '127.0.0.1.nip.io',
    `localhost6:${p}`,
    'localhost6',
    '',
    `:${p}`,
    `0x7f.1:${p}`,
    `127.1:${p}`,
    `2130706433:${p}`,
    `0177.0.0.1:${p}`,
    `[::ffff:7f00:1]:${p}`,
    `[::ffff:127.0.0.1]:${p}`,
    `a@127.0.0.1:${p}`,
    `evil.example@localhost:${p}`,
    '127.0.0.1',
    'localhost',
    '[::1]',
    `127.0.0.1:${p + 1}`,
    `localhost:${p === 1 ? 2 : p - 1}`,
    `127.0.0.2:${p}`,
    `0.0.0.0:${p}`,
    `[::]:${p}`,
    `localhost.:${p}`,
    `127.0.0.1.:${p}`,
    `127.0.0.1:${p}.evil.example`,
    `127.0.0.1:${p}:${p}`,
    `localtest.me:${p}`,
    `app.localhost:${p}`,
    `127.0.0.1:${p},evil.example`,
    `[::1%25lo]:${p}`,
    `[0:0:0:0:0:0:0:1]:${p}`,
    `0:${p}`,
    `127.000.000.001:${p}`,
    `http://127.0.0.1:${p}`,
    'localhost:99999',
    `localhost:${p}/x`,
    `127.0.0.1 :${p}`,
    `evil.example:${p}#@127.0.0.1`,
    `::1:${p}`,
  ];
  return [
    ...hosts.map((h): [string, string[]] => [`Host: ${JSON.stringify(h)}`, [`Host: ${h}`]]),
    ['no Host over HTTP/1.0', [], undefined, '1.0'],
    ['two Host headers, the second hostile', [`Host: 127.0.0.1:${p}`, 'Host: evil.example']],
    ['two identical allowed Host headers', [`Host: 127.0.0.1:${p}`, `Host: 127.0.0.1:${p}`]],
    [
      'X-Forwarded-Host naming us from a hostile Host',
      ['Host: evil.example', `X-Forwarded-Host: 127.0.0.1:${p}`],
    ],
    ['an absolute-form target naming another host', [`Host: 127.0.0.1:${p}`], 'http://evil.example/health'],
    ['an absolute-form target naming us', [`Host: 127.0.0.1:${p}`], `http://127.0.0.1:${p}/health`],
  ];
}

describe('Host allow-list (DNS rebinding)', () => {
  it('has at least 40 hostile requests', () =>
    expect(hostileRequests(4780).length).toBeGreaterThanOrEqual(40));

  it('refuses every hostile Host with 403 {error} on public, keyed and unknown routes alike', async () => {
    for (const [label, lines, target, version] of hostileRequests(port))
      for (const path of ['/health', '/api/v1/me', '/no-such-route']) {
        const res = await rawGet(port, target ?? path, [...lines, `Authorization: Bearer ${key}`], version);
        expect(res.status, `${label} on ${path}`).toBe(403);
        expect(JSON.parse(res.body), label).toEqual({ error: expect.any(String) });
      }
  });

  it('refuses a hostile Host on a public write before it changes anything', async () => {
    const body = JSON.stringify({ email: 'rebind@example.com' });
    const res = await rawRequest(
      port,
      `POST /api/v1/waitlist HTTP/1.1\r\nHost: evil.example:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(403);
    const list = (await (await srv.as(srv.owner)('/api/v1/waitlist')).json()) as {
      data: { email: string }[];
    };
    expect(list.data.map((e) => e.email)).not.toContain('rebind@example.com');
  });

  it('answers a missing Host over HTTP/1.1 with 400 {error} as JSON, never a response from a route', async () => {
    for (const path of ['/health', '/api/v1/me', '/no-such-route']) {
      const res = await rawGet(port, path, [`Authorization: Bearer ${key}`]);
      expect(res.status, path).toBe(400);
      expect(res.headers, path).toMatch(/^content-type: application\/json/im);
      expect(JSON.parse(res.body), path).toEqual({ error: expect.stringMatching(/Host/) });
    }
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST'])(
    'accepts the allowed form %s:<port>',
    async (name) => {
      const res = await rawGet(port, '/api/v1/me', [`Host: ${name}:${port}`, `Authorization: Bearer ${key}`]);
      expect(res.status).toBe(200);
    },
  );
});

describe('session writes check Origin (CSRF)', () => {
  const workspaceNames = async () =>
    ((await (await srv.as(srv.owner)('/api/v1/workspaces')).json()) as { data: { name: string }[] }).data.map(
      (w) => w.name,
    );

  it('refuses a session POST, PATCH and DELETE from a foreign Origin or a cross-site fetch, and mutates nothing', async () => {
    const before = await workspaceNames();
    const keysBefore = await (await srv.as(srv.owner)('/api/v1/api-keys')).text();
    const other = port === 65535 ? port - 1 : port + 1;
    const foreign: Array<Record<string, string>> = [
      { origin: `http://127.0.0.1:${other}` },
      { origin: `http://localhost:${other}` },
      { origin: srv.url.replace('127.0.0.1', 'localhost') },
      { origin: `http://[::1]:${port}` },
      { origin: 'null' },
      { origin: `https://127.0.0.1:${port}` },
      { origin: 'http://evil.example' },
      { origin: `${srv.url}/` },
      { origin: '' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    const [{ id: keyId }] = (
      (await (await srv.as(srv.owner)('/api/v1/api-keys')).json()) as { data: { id: string }[] }
    ).data;
    for (const headers of foreign) {
      const calls: Array<[string, RequestInit]> = [
        ['/api/v1/workspaces', { method: 'POST', body: JSON.stringify({ name: 'csrf' }) }],
        ['/api/v1/me', { method: 'PATCH', body: JSON.stringify({ name: 'csrf' }) }],
        [`/api/v1/api-keys/${keyId}`, { method: 'DELETE' }],
        ['/auth/sign-out', { method: 'POST' }],
      ];
      for (const [path, init] of calls) {
        const h = new Headers({ cookie: srv.owner.cookie, 'content-type': 'application/json', ...headers });
        if (!('origin' in headers)) h.delete('origin');
        const res = await fetch(`${srv.url}${path}`, { ...init, headers: h });
        expect(res.status, `${init.method} ${path} with ${JSON.stringify(headers)}`).toBe(403);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    }
    expect(await workspaceNames()).toEqual(before);
    expect(await (await srv.as(srv.owner)('/api/v1/api-keys')).text()).toBe(keysBefore);
    expect((await srv.as(srv.owner)('/api/v1/me')).status).toBe(200);
  });

  it('accepts a session write with our exact Origin, or from a non-browser client with neither header', async () => {
    const withOrigin = await srv.as(srv.owner)('/api/v1/me', {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Owner' }),
    });
    expect(withOrigin.status).toBe(200);
    const curlLike = await fetch(`${srv.url}/api/v1/me`, {
      method: 'PATCH',
      headers: { cookie: srv.owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Owner' }),
    });
    expect(curlLike.status).toBe(200);
  });

  it('does not make key-authenticated writes depend on Origin', async () => {
    const id = await uploadAsset(srv, key, 'origin.txt');
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port + 1}`]) {
      const res = await fetch(`${srv.url}/api/v1/assets/${id}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${key}`,
          origin,
          'sec-fetch-site': 'cross-site',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ displayName: `from ${origin}` }),
      });
      expect(res.status, origin).toBe(200);
    }
  });
});

describe('limits', () => {
  it('answers 429 with Retry-After and {error} once a key spends its burst, and only for that key', async () => {
    const limited = await startTestServer({ limits: { rateLimitPerMinute: 60, rateLimitBurst: 5 } as never });
    try {
      const bearer = await limited.createKey({ services: [] });
      const other = await limited.createKey({ services: [] });
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 7; i++) {
        last = await limited.as({ bearer })('/api/v1/me');
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[6]).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await last!.json()).toEqual({ error: expect.any(String) });
      expect((await limited.as({ bearer: other })('/api/v1/me')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('rate-limits public writes by client address', async () => {
    const limited = await startTestServer({ limits: { rateLimitPerMinute: 60, rateLimitBurst: 3 } as never });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.as(null)('/api/v1/waitlist', {
          method: 'POST',
          body: JSON.stringify({ email: `w${i}@example.com` }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([202, 202, 202, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('answers 413 {error} to a JSON body over the limit, and keeps serving', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1.5 * (1 << 20)) });
    const res = await srv.as(srv.owner)('/api/v1/workspaces', { method: 'POST', body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.any(String) });
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  });
});
