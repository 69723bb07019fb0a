// What a server deployment adds (a hosted instance behind a proxy): /health and /ready, the public URL as the
// allowed Host and Origin with Secure cookies, the client address from a trusted proxy only, JSON log lines that
// never carry a serve key, and X-Accel-Redirect for bytes nginx can send itself.
import { afterEach, describe, expect, it } from 'vitest';
import { uploadAsset } from '../../helpers/factories.js';
import { hostedTests } from '../../helpers/hosted/backend.js';
import { rawGet, rawRequest } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const srv of servers.splice(0)) await srv.close();
});
async function start(overrides: Parameters<typeof startTestServer>[0] = {}) {
  const srv = await startTestServer(overrides);
  servers.push(srv);
  return srv;
}

describe('health and readiness', () => {
  it('/health and /ready name the backend and the node', async () => {
    const srv = await start({ nodeId: 'node-7' });
    const backend = hostedTests ? 'postgres+s3' : 'files';
    for (const path of ['/health', '/ready']) {
      const res = await fetch(`${srv.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, backend, node: 'node-7' });
    }
  });

  it.skipIf(!hostedTests)(
    '/ready answers 503 once the database is gone, while /health still answers',
    async () => {
      const srv = await start();
      const pg = await import('pg');
      const url = new URL(srv.server.config.database!.url);
      const name = url.pathname.slice(1);
      url.pathname = '/postgres';
      const admin = new pg.default.Client({ connectionString: url.toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`).finally(() => admin.end());
      expect((await fetch(`${srv.url}/ready`)).status).toBe(503);
      expect((await fetch(`${srv.url}/health`)).status).toBe(200);
    },
  );
});

describe('public URL', () => {
  it('allows exactly its host and origin, and sets the session cookie Secure behind TLS', async () => {
    const srv = await start({ publicUrl: 'https://folio.example.com' });
    const port = Number(new URL(srv.url).port);
    expect((await rawGet(port, '/health', ['Host: folio.example.com'])).status).toBe(200);
    expect((await rawGet(port, '/health', ['Host: folio.example.com.evil.net'])).status).toBe(403);
    expect((await rawGet(port, '/health', ['Host: folio.example.com:8443'])).status).toBe(403);

    const link = await srv.deps.identity.mintSignInLink(
      srv.server.config.ownerEmail,
      'https://folio.example.com',
    );
    expect(link.startsWith('https://folio.example.com/auth/callback?token=')).toBe(true);
    const target = link.slice('https://folio.example.com'.length);
    const callback = await rawGet(port, target, ['Host: folio.example.com']);
    expect(callback.status).toBe(302);
    const setCookie = /^set-cookie: (folio_session=[^\r\n]+)$/im.exec(callback.headers)?.[1] ?? '';
    expect(setCookie).toMatch(/; secure/i);
    const cookie = setCookie.split(';')[0];

    const write = (origin: string) =>
      rawRequest(
        port,
        `PATCH /api/v1/me HTTP/1.1\r\nHost: folio.example.com\r\nCookie: ${cookie}\r\nOrigin: ${origin}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{"name":"Own"}',
      );
    expect((await write('http://folio.example.com')).status).toBe(403);
    expect((await write('https://evil.example')).status).toBe(403);
    expect((await write('https://folio.example.com')).status).toBe(200);
  });
});

describe('client address behind a proxy', () => {
  const joinFrom = (srv: TestServer, forwardedFor: string, email: string) =>
    fetch(`${srv.url}/api/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ email }),
    });

  it('rate-limits by X-Forwarded-For only when the proxy is trusted', async () => {
    const limits = { rateLimitPerMinute: 60, rateLimitBurst: 2 } as never;
    const trusting = await start({ limits, trustedProxies: ['127.0.0.1', '::1'] });
    const statuses = async (srv: TestServer, forwardedFor: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) out.push((await joinFrom(srv, forwardedFor, `p${i}@example.com`)).status);
      return out;
    };
    expect(await statuses(trusting, '203.0.113.7')).toEqual([202, 202, 429]);
    expect((await joinFrom(trusting, '203.0.113.8', 'other@example.com')).status).toBe(202);
    // a client's own X-Forwarded-For entry, left of the proxy's, changes nothing
    expect((await joinFrom(trusting, '198.51.100.1, 203.0.113.7', 'spoof@example.com')).status).toBe(429);

    const plain = await start({ limits });
    expect(await statuses(plain, '203.0.113.9')).toEqual([202, 202, 429]);
    expect((await joinFrom(plain, '203.0.113.10', 'x@example.com')).status).toBe(429);
  });

  it('refuses a trusted proxy list it cannot read', async () => {
    await expect(startTestServer({ trustedProxies: ['10.0.0.0/8', 'proxy.internal'] })).rejects.toThrow(
      /proxy\.internal/,
    );
  });
});

describe('logs and bytes on a hosted deployment', () => {
  it('writes JSON lines naming the node and the route pattern, never the serve key', async () => {
    const srv = await start({ logFormat: 'json', nodeId: 'node-3' });
    const key = await srv.createKey({ services: ['assets'] });
    const id = await uploadAsset(srv, key);
    const asset = (await (await srv.as({ bearer: key })(`/api/v1/assets/${id}`)).json()) as { key: string };
    expect((await fetch(`${srv.url}/f/${asset.key}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const lines = srv.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.every((l) => l.node === 'node-3' && typeof l.time === 'string')).toBe(true);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', route: '/f/:key', status: 200 }));
    expect(srv.logs.join('\n')).not.toContain(asset.key);
  });

  it('answers X-Accel-Redirect for file blobs, after checking validators itself', async () => {
    const srv = await start({ accelRedirect: '/_folio/data/' });
    const key = await srv.createKey({ services: ['assets'] });
    const id = await uploadAsset(srv, key);
    const asset = (await (await srv.as({ bearer: key })(`/api/v1/assets/${id}`)).json()) as {
      key: string;
      workspaceId: string;
    };
    const res = await fetch(`${srv.url}/f/${asset.key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    if (hostedTests) {
      // blobs in a bucket: nothing for nginx to send from disk, the node streams them
      expect(res.headers.get('x-accel-redirect')).toBeNull();
      expect(await res.text()).toBe('hello from note.txt');
      return;
    }
    const me = (await (await srv.as({ bearer: key })('/api/v1/me')).json()) as { workspace: { id: string } };
    expect(res.headers.get('x-accel-redirect')).toBe(
      `/_folio/data/workspaces/${me.workspace.id}/files/${id}`,
    );
    expect(await res.text()).toBe('');
    const again = await fetch(`${srv.url}/f/${asset.key}`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-accel-redirect')).toBeNull();
  });
});
