// README.md, "The dashboard and the desktop app": the built dashboard at / for a session, the sign-in prompt without
// one, compressed immutable assets, client routes falling back to the dashboard, API and serve routes keeping their
// paths.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboard } from '../../../e2e/ensure-dashboard.js';
import { spawnServer } from '../../../helpers/child-server.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  await ensureDashboard();
  srv = await startTestServer();
});
afterAll(() => srv.close());

/** node:http leaves bodies compressed as sent (fetch would decode them). */
function fetchRaw(
  url: string,
  encoding?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const page = (path: string, cred: Parameters<TestServer['as']>[0] = srv.owner) => srv.as(cred)(path);

describe('the dashboard at /', () => {
  it('a signed-in session gets the React dashboard with a strict CSP and no caching', async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain('<div id="root">');
    expect(html).toMatch(/src="\/_app\/[\w-]+\.js"/);
  });

  it('without a session / is the plain sign-in prompt, with no script at all', async () => {
    const res = await page('/', null);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Sign in to Folio');
    expect(html).not.toContain('<script');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('client-side routes fall back to the dashboard; unknown paths and API routes keep their answers', async () => {
    for (const path of [
      '/assets',
      '/assets/ast_abc',
      '/transcripts/tr_1',
      '/keys',
      '/settings',
      '/dictation',
    ])
      expect((await page(path)).headers.get('content-type'), path).toMatch(/^text\/html/);
    const api = await page('/api/v1/me');
    expect(api.headers.get('content-type')).toMatch(/json/);
    expect((await page('/api/v1/nope')).status).toBe(404);
    expect((await page('/nope')).status).toBe(404);
    expect((await page('/assetsandmore')).status).toBe(404);
    expect((await srv.as(srv.owner)('/assets', { method: 'POST' })).status).toBe(405);
    expect((await page('/llms.txt')).headers.get('content-type')).toMatch(/text\/plain|markdown/);
  });

  it('built files are compressed (br, else gzip) and cached immutably by content hash', async () => {
    const html = await (await page('/')).text();
    const script = html.match(/\/_app\/[\w-]+\.js/)![0];
    const br = await fetchRaw(`${srv.url}${script}`, 'gzip, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    const plain = brotliDecompressSync(br.body).toString();
    const gz = await fetchRaw(`${srv.url}${script}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain);
    const none = await fetchRaw(`${srv.url}${script}`);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe(plain);
    expect(br.body.length).toBeLessThan(none.body.length / 2);
  });

  it('only files of the build are served: traversal and unknown names are refused', async () => {
    for (const path of [
      '/_app/..%2Fbuild-info.json',
      '/_app/nope.js',
      '/_app/%2e%2e%2findex.html',
      '/_app/..%5Cbuild-info.json',
    ])
      expect([400, 404], path).toContain((await page(path)).status);
  });
});

describe('`npm run serve`', () => {
  it('starts the server with its start-up lines first, and the owner’s / loads the dashboard script', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'));
    expect(pkg.scripts.serve).toBe('tsx scripts/serve.ts');
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-serve-'));
    const server = await spawnServer(['--port', '0', '--data-dir', dataDir], { entry: 'scripts/serve.ts' });
    try {
      expect(server.lines[0]).toMatch(/^Folio listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.lines[1]).toMatch(/^Owner sign-in: /);
      const signIn = await fetch(server.ownerLink, { redirect: 'manual' });
      const cookie = signIn.headers.getSetCookie()[0].split(';')[0];
      const html = await (await fetch(`${server.url}/`, { headers: { cookie } })).text();
      expect(html).toMatch(/<script type="module"[^>]* src="\/_app\/[^"]+\.js">/);
    } finally {
      await server.kill('SIGTERM');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
