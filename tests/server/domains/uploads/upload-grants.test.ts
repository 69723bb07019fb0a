import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedText } from '../../../helpers/stored.js';
import { filePart, multipart, png, postRaw, wav } from '../assets/fixtures.js';
import { type AssetsServer, startAssetsServer } from '../assets/harness.js';

let s: AssetsServer;
beforeAll(async () => {
  s = await startAssetsServer();
});
afterAll(() => s?.close());

async function mint(body: unknown = {}) {
  const res = await s.api('/api/v1/uploads/grant', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

function clientUpload(
  grant: string | undefined,
  parts = [filePart('hello grant', 'note.txt', 'text/plain')],
) {
  const { body, contentType } = multipart(parts);
  const headers: Record<string, string> = {
    'content-type': contentType,
    origin: 'http://third-party.example',
  };
  if (grant) headers.authorization = `Bearer ${grant}`;
  return postRaw(`${s.url}/api/v1/uploads/client`, headers, body);
}

describe('client-upload grants', () => {
  it('mints { grant, expiresAt, uploadUrl } with an fg_ secret, 10 minutes by default', async () => {
    const { status, body } = await mint();
    expect(status).toBe(201);
    expect(body.grant).toMatch(/^fg_[0-9A-Za-z]{32}$/);
    expect(body.uploadUrl).toBe(`${s.url}/api/v1/uploads/client`);
    const lifetime = Date.parse(body.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(590_000);
    expect(lifetime).toBeLessThanOrEqual(600_000);
  });
  it('stores only a hash of the grant', async () => {
    const { body } = await mint();
    const text = await storedText(s.srv);
    expect(text).toContain(createHash('sha256').update(body.grant).digest('hex'));
    expect(text).not.toContain(body.grant);
    expect(text).not.toContain(body.grant.slice(3));
  });
  it('only a key can mint: a session gets 403, nothing gets 401; expiresIn is bounded', async () => {
    const asOwner = s.srv.as(s.srv.owner);
    expect((await asOwner('/api/v1/uploads/grant', { method: 'POST', body: '{}' })).status).toBe(403);
    expect((await fetch(`${s.url}/api/v1/uploads/grant`, { method: 'POST' })).status).toBe(401);
    expect((await mint({ expiresIn: 3601 })).status).toBe(400);
    expect((await mint({ nope: 1 })).status).toBe(400);
  });
  it('uploads once with the grant, answers CORS * without credentials, then 410', async () => {
    const { body } = await mint({ displayName: 'From a browser', tags: ['client'] });
    const first = await clientUpload(body.grant);
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ displayName: 'From a browser', tags: ['client'], type: 'document' });
    expect(first.headers['access-control-allow-origin']).toBe('*');
    expect(first.headers['access-control-allow-credentials']).toBeUndefined();
    const second = await clientUpload(body.grant);
    expect(second.status).toBe(410);
    expect(second.headers['access-control-allow-origin']).toBe('*');
    const listed = (await (await s.api('/api/v1/assets?tags=client')).json()).data;
    expect(listed.map((a: { id: string }) => a.id)).toEqual([first.json.id]);
  });
  it('answers the preflight for POST with authorization and content-type', async () => {
    const res = await fetch(`${s.url}/api/v1/uploads/client`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://third-party.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
  it('accepts the grant as a form field before the file (plain HTML forms)', async () => {
    const { body } = await mint();
    const res = await clientUpload(undefined, [
      { name: 'grant', value: body.grant },
      filePart('via form', 'form.txt', 'text/plain'),
    ]);
    expect(res.status).toBe(201);
    expect(
      (await clientUpload(undefined, [{ name: 'grant', value: body.grant }, filePart('again', 'form.txt')]))
        .status,
    ).toBe(410);
  });
  it('no grant, a bad grant or an API key → 401', async () => {
    expect((await clientUpload(undefined)).status).toBe(401);
    expect((await clientUpload('fg_notARealGrant')).status).toBe(401);
    expect((await clientUpload(`fg_${'a'.repeat(32)}`)).status).toBe(401);
    expect((await clientUpload(s.key)).status).toBe(401);
  });
  it('an expired grant → 410', async () => {
    // its own server: moving the clock would also disturb the shared server's rate limiter
    const own = await startAssetsServer();
    const res = await own.api('/api/v1/uploads/grant', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"expiresIn":10}',
    });
    const { grant } = await res.json();
    const { body, contentType } = multipart([filePart('late', 'late.txt')]);
    const realNow = Date.now;
    Date.now = () => realNow() + 11_000; // the server runs in this process
    try {
      const late = await postRaw(
        `${own.url}/api/v1/uploads/client`,
        { authorization: `Bearer ${grant}`, 'content-type': contentType },
        body,
      );
      expect(late.status).toBe(410);
      expect(late.json.error).toMatch(/expired/);
    } finally {
      Date.now = realNow;
      await own.close();
    }
  });
  it('enforces maxBytes (413) and allowedTypes (415); a refused upload leaves no file and the grant usable', async () => {
    const { body } = await mint({ maxBytes: 100, allowedTypes: ['image'] });
    expect((await clientUpload(body.grant, [filePart(Buffer.alloc(101, 1), 'big.bin')])).status).toBe(413);
    expect((await clientUpload(body.grant, [filePart(wav(0.1), 'a.wav')])).status).toBe(413);
    expect((await clientUpload(body.grant, [filePart('just text', 'a.txt')])).status).toBe(415);
    expect(await s.storedFiles()).not.toContainEqual(expect.stringMatching(/^tmp\//));
    const ok = await clientUpload(body.grant, [filePart(await png(2, 2), 'tiny.png')]);
    expect(ok.status).toBe(201);
    expect(ok.json.type).toBe('image');
  });
  it('is single-use under a race: 20 parallel uploads → exactly one 201, the rest 410', async () => {
    const { body } = await mint();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => clientUpload(body.grant, [filePart(`race ${i}`, `r${i}.txt`)])),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 410)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 410)) expect(r.json.error).toMatch(/already used/);
  });
});
