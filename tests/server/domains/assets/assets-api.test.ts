import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, jpeg, png, wav } from './fixtures.js';
import { type AssetsServer, startAssetsServer } from './harness.js';

let s: AssetsServer;
beforeAll(async () => {
  s = await startAssetsServer();
});
afterAll(() => s?.close());

describe('assets API: upload → list → patch → serve → delete', () => {
  it('uploads a file and answers the asset with urls, type from the bytes and a 128+ bit key', async () => {
    const bytes = await png(40, 30);
    const res = await s.upload([
      filePart(bytes, 'pic.png', 'image/png'),
      { name: 'displayName', value: 'A picture' },
      { name: 'tags', value: 'red, demo' },
    ]);
    expect(res.status).toBe(201);
    const a = res.json;
    expect(a).toMatchObject({
      displayName: 'A picture',
      tags: ['red', 'demo'],
      type: 'image',
      contentType: 'image/png',
      size: bytes.length,
      width: 40,
      height: 30,
    });
    expect(a.key).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(a.urls.file).toBe(`${s.url}/f/${a.key}`);
    expect(a.urls.thumb).toBe(`${s.url}/img/thumb/${a.key}`);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    const served = Buffer.from(await (await fetch(a.urls.file)).arrayBuffer());
    expect(served.equals(bytes)).toBe(true);
  });

  it('reads the duration of audio', async () => {
    const res = await s.upload([filePart(wav(2), 'tone.wav', 'audio/wav')]);
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('audio');
    expect(res.json.duration).toBeCloseTo(2, 1);
    expect(res.json.urls.audio).toContain('/audio/');
  });

  it('lists newest first, filters by type, tags and search, and pages with a cursor', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await s.upload([
        filePart(`note ${i}`, `note-${i}.txt`, 'text/plain'),
        { name: 'tags', value: i % 2 ? 'odd' : 'even' },
      ]);
      expect(r.status).toBe(201);
    }
    const all = await (await s.api('/api/v1/assets?limit=200')).json();
    expect(all.data.length).toBe(7);
    expect(all.data[0].displayName).toBe('note-4.txt');
    expect(all.nextCursor).toBeNull();
    const docs = await (await s.api('/api/v1/assets?type=document')).json();
    expect(docs.data.map((a: { type: string }) => a.type)).toEqual(Array(5).fill('document'));
    const odd = await (await s.api('/api/v1/assets?tags=odd')).json();
    expect(odd.data.map((a: { displayName: string }) => a.displayName)).toEqual(['note-3.txt', 'note-1.txt']);
    const search = await (await s.api('/api/v1/assets?search=PICTURE')).json();
    expect(search.data.map((a: { displayName: string }) => a.displayName)).toEqual(['A picture']);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const body = await (await s.api(`/api/v1/assets?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...body.data.map((a: { id: string }) => a.id));
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    expect(seen).toEqual(all.data.map((a: { id: string }) => a.id));
  });

  it.each(['0', '201', 'abc', '1.5'])('rejects limit=%s with 400', async (limit) => {
    const res = await s.api(`/api/v1/assets?limit=${limit}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/limit/);
  });

  it('patches displayName and tags only; unknown fields are 400', async () => {
    const [first] = (await (await s.api('/api/v1/assets?limit=1')).json()).data;
    const patch = (body: unknown) =>
      s.api(`/api/v1/assets/${first.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await patch({ displayName: 'Renamed', tags: ['x', 'x', 'y'] });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ displayName: 'Renamed', tags: ['x', 'y'] });
    expect((await patch({ size: 1 })).status).toBe(400);
    expect((await patch({ displayName: '' })).status).toBe(400);
    expect((await (await s.api(`/api/v1/assets/${first.id}`)).json()).displayName).toBe('Renamed');
  });

  it('a list page shows a patch at once, and the URLs of the address it was asked on', async () => {
    const page = async (origin = s.url) =>
      (await (await fetch(`${origin}/api/v1/assets?limit=3`, { headers: s.auth })).json()).data as Array<{
        id: string;
        displayName: string;
        tags: string[];
        urls: { file: string };
      }>;
    const [before] = await page(); // the page's JSON is now kept for these records
    const renamed = await s.api(`/api/v1/assets/${before.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Listed again', tags: ['fresh'] }),
    });
    expect(renamed.status).toBe(200);
    const [after] = await page();
    expect(after).toMatchObject({ id: before.id, displayName: 'Listed again', tags: ['fresh'] });
    const viaLocalhost = s.url.replace('127.0.0.1', 'localhost');
    const [named] = await page(viaLocalhost);
    expect(named.urls.file.startsWith(`${viaLocalhost}/f/`)).toBe(true);
    expect((await page())[0].urls.file.startsWith(`${s.url}/f/`)).toBe(true);
  });

  it('keeps usage exact through upload and delete, and delete removes bytes and derivatives', async () => {
    const list = async () =>
      (await (await s.api('/api/v1/assets?limit=200')).json()).data as {
        id: string;
        size: number;
        key: string;
        type: string;
      }[];
    const before = await list();
    const usageBefore = await s.srv.deps.assets.usage(s.workspaceId);
    expect(usageBefore).toEqual({ assets: before.length, bytes: before.reduce((n, a) => n + a.size, 0) });
    const bytes = await jpeg(600, 400);
    const up = (await s.upload([filePart(bytes, 'photo.jpg', 'image/jpeg')])).json;
    expect((await fetch(`${s.url}/img/thumb/${up.key}`)).status).toBe(200);
    const after = await list();
    expect(after.length).toBe(before.length + 1);
    expect(await s.srv.deps.assets.usage(s.workspaceId)).toEqual({
      assets: usageBefore.assets + 1,
      bytes: usageBefore.bytes + bytes.length,
    });
    const listed = await (
      await fetch(`${s.url}/api/v1/workspaces`, { headers: { cookie: s.srv.owner.cookie } })
    ).json();
    expect(JSON.stringify(listed)).toContain(String(usageBefore.bytes + bytes.length));
    const del = await s.api(`/api/v1/assets/${up.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await s.api(`/api/v1/assets/${up.id}`)).status).toBe(404);
    expect((await s.api(`/api/v1/assets/${up.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${s.url}/f/${up.key}`)).status).toBe(404);
    expect((await fetch(`${s.url}/img/thumb/${up.key}`)).status).toBe(404);
    expect(await s.storedFiles()).not.toContainEqual(expect.stringContaining(up.id));
    const cacheDir = await readFile(join(s.dataDir, 'cache', 'img', up.key)).catch((e) => e.code);
    expect(cacheDir).toBe('ENOENT');
    expect((await list()).length).toBe(before.length);
    expect(await s.srv.deps.assets.usage(s.workspaceId)).toEqual(usageBefore);
  });

  it('never shows another workspace’s asset (404), nor lists it', async () => {
    const bob = await s.srv.signInApproved('bob@example.com');
    const bearer = await s.srv.createKey({ services: ['assets'], session: bob });
    const asBob = s.srv.as({ bearer });
    const [mine] = (await (await s.api('/api/v1/assets?limit=1')).json()).data;
    for (const method of ['GET', 'DELETE'])
      expect((await asBob(`/api/v1/assets/${mine.id}`, { method })).status).toBe(404);
    const patched = await asBob(`/api/v1/assets/${mine.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ displayName: 'x' }),
    });
    expect(patched.status).toBe(404);
    expect((await (await asBob('/api/v1/assets')).json()).data).toEqual([]);
  });

  it('a key without the assets service gets 403 naming it; no credential gets 401', async () => {
    const bearer = await s.srv.createKey({ services: ['charts'] });
    const res = await s.srv.as({ bearer })('/api/v1/assets');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ service: 'assets' });
    expect((await fetch(`${s.url}/api/v1/assets`)).status).toBe(401);
  });

  it('the owner session can upload and list too', async () => {
    const res = await s.upload([filePart('hello', 'hello.txt', 'text/plain')], {
      cookie: s.srv.owner.cookie,
      origin: s.url,
    });
    expect(res.status).toBe(201);
  });
});
