import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, multipart, png, postRaw, type RawResponse } from '../assets/fixtures.js';
import { type AssetsServer, startAssetsServer } from '../assets/harness.js';

let s: AssetsServer;
const LIMIT = 2 * 1024 * 1024;

beforeAll(async () => {
  s = await startAssetsServer({ limits: { uploadBytes: LIMIT } as never });
});
afterAll(() => s?.close());

/** Each bad upload: a clear 4xx `{error}`, nothing left in tmp or files, no record, and the server still serves. */
async function expectRefused(res: RawResponse, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  expect(res.json.error).toMatch(message);
  await new Promise((r) => setTimeout(r, 50));
  expect(await s.storedFiles()).toEqual([]);
  expect((await (await s.api('/api/v1/assets')).json()).data).toEqual([]);
  expect((await s.api('/api/v1/assets')).status).toBe(200);
}

describe('bad uploads', () => {
  it('no file field → 400', async () => {
    await expectRefused(await s.upload([{ name: 'displayName', value: 'x' }]), 400, /field named "file"/);
  });
  it('wrong file field name → 400 naming it', async () => {
    await expectRefused(
      await s.upload([{ name: 'upload', value: 'abc', filename: 'a.txt' }]),
      400,
      /"upload"/,
    );
  });
  it('empty file → 400', async () => {
    await expectRefused(await s.upload([filePart('', 'empty.txt')]), 400, /empty/);
  });
  it('two files → 400', async () => {
    await expectRefused(
      await s.upload([filePart('a', 'a.txt'), filePart('b', 'b.txt')]),
      400,
      /exactly one file/,
    );
  });
  it('not multipart → 415', async () => {
    await expectRefused(
      await postRaw(
        `${s.url}/api/v1/uploads`,
        { ...s.auth, 'content-type': 'application/json' },
        Buffer.from('{}'),
      ),
      415,
      /multipart/,
    );
  });
  it('truncated multipart (no closing boundary) → 400', async () => {
    const { body, contentType } = multipart([filePart(Buffer.alloc(50_000, 1), 'cut.bin')]);
    const cut = body.subarray(0, body.length - 30_000);
    await expectRefused(
      await postRaw(`${s.url}/api/v1/uploads`, { ...s.auth, 'content-type': contentType }, cut),
      400,
      /Malformed|Unexpected end/i,
    );
  });
  it('oversized file streamed in chunks (no Content-Length) → 413 and the temp file is gone', async () => {
    const { body, contentType } = multipart([filePart(Buffer.alloc(LIMIT + 1, 7), 'big.bin')]);
    const res = await postRaw(
      `${s.url}/api/v1/uploads`,
      { ...s.auth, 'content-type': contentType, 'transfer-encoding': 'chunked' },
      body,
      { chunked: true },
    );
    await expectRefused(res, 413, /upload limit/);
  });
  it('oversized by Content-Length → 413 before reading', async () => {
    const { body, contentType } = multipart([filePart(Buffer.alloc(LIMIT * 2, 7), 'big.bin')]);
    await expectRefused(
      await postRaw(`${s.url}/api/v1/uploads`, { ...s.auth, 'content-type': contentType }, body),
      413,
      /upload limit/,
    );
  });
  it('a file of exactly the limit is accepted', async () => {
    const res = await s.upload([filePart(Buffer.alloc(LIMIT, 9), 'exact.bin')]);
    expect(res.status).toBe(201);
    expect((await s.api(`/api/v1/assets/${res.json.id}`, { method: 'DELETE' })).status).toBe(204);
  });
  it('pixel bomb (20000×20000 flat PNG) → 422 fast, nothing stored', async () => {
    const bomb = await sharp({
      create: { width: 20000, height: 20000, channels: 3, background: '#000' },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(LIMIT);
    const started = Date.now();
    await expectRefused(await s.upload([filePart(bomb, 'bomb.png', 'image/png')]), 422, /megapixels/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
  it('bad tags field → 400', async () => {
    await expectRefused(
      await s.upload([{ name: 'tags', value: '[1,' }, filePart('x', 'x.txt')]),
      400,
      /tags/,
    );
  });
  it('malformed corpus never crashes the server', async () => {
    const bodies = [
      'garbage',
      '--folioTestBoundary7MA4YWxk\r\n\r\n',
      '--folioTestBoundary7MA4YWxk\r\nContent-Disposition: form-data; name=""; filename="a"\r\n\r\nabc\r\n--folioTestBoundary7MA4YWxk--\r\n',
      '--folioTestBoundary7MA4YWxk\r\nContent-Disposition: form-data; name="file"; filename=""\r\n\r\nabc\r\n--folioTestBoundary7MA4YWxk--\r\n',
      `--folioTestBoundary7MA4YWxk\r\n${'X-H: 1\r\n'.repeat(2001)}\r\nabc\r\n--folioTestBoundary7MA4YWxk--\r\n`,
      `${'--folioTestBoundary7MA4YWxk\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n'.repeat(200)}--folioTestBoundary7MA4YWxk--\r\n`,
    ];
    for (const text of bodies) {
      const res = await postRaw(
        `${s.url}/api/v1/uploads`,
        { ...s.auth, 'content-type': 'multipart/form-data; boundary=folioTestBoundary7MA4YWxk' },
        Buffer.from(text),
      );
      expect(res.status, text.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.json.error).toBe('string');
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(await s.storedFiles()).toEqual([]);
  });
});

describe('types come from the bytes', () => {
  it('a PNG sent as audio/mpeg named .mp3 is stored as an image', async () => {
    const res = await s.upload([filePart(await png(10, 10), 'song.mp3', 'audio/mpeg')]);
    expect(res.json).toMatchObject({ type: 'image', contentType: 'image/png', width: 10, height: 10 });
    expect((await fetch(`${s.url}/audio/${res.json.key}`)).status).toBe(404);
    await s.api(`/api/v1/assets/${res.json.id}`, { method: 'DELETE' });
  });
  it('HTML sent as image/png is not an image', async () => {
    const res = await s.upload([filePart('<!DOCTYPE html><h1>hi</h1>', 'cat.png', 'image/png')]);
    expect(res.json.type).toBe('other');
    expect(res.json.contentType).toMatch(/^text\/html/);
    expect(res.json.urls.img).toBeUndefined();
    await s.api(`/api/v1/assets/${res.json.id}`, { method: 'DELETE' });
  });
});
