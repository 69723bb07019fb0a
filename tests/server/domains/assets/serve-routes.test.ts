import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, jpeg, png, wav } from './fixtures.js';
import { type AssetsServer, startAssetsServer } from './harness.js';
import { checkRangeVector } from './range-check.js';
import { rangeVectors, SIZE } from './range-vectors.js';

let s: AssetsServer;
let audio: { key: string; bytes: Buffer };
let photo: { key: string };
let svg: { key: string };
let html: { key: string };

beforeAll(async () => {
  s = await startAssetsServer();
  const tone = wav(1, 8000);
  // a WAV whose total size is SIZE bytes, so the shared range vectors apply to /audio as well
  const bytes = Buffer.concat([tone.subarray(0, 44), randomBytes(SIZE - 44)]);
  bytes.writeUInt32LE(SIZE - 8, 4);
  bytes.writeUInt32LE(SIZE - 44, 40);
  audio = { key: (await s.upload([filePart(bytes, 'tone.wav', 'audio/wav')])).json.key, bytes };
  photo = { key: (await s.upload([filePart(await jpeg(1200, 900), 'photo.jpg', 'image/jpeg')])).json.key };
  const svgBody = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
  svg = { key: (await s.upload([filePart(svgBody, 'évil drawing.svg', 'image/svg+xml')])).json.key };
  html = {
    key: (await s.upload([filePart('<!doctype html><script>alert(1)</script>', 'cat.png', 'image/png')])).json
      .key,
  };
});
afterAll(() => s?.close());

describe('/audio Range vectors (RFC 9110, range-parser, s3-tests)', () => {
  it.each(rangeVectors({ etag: '', lastModified: '' }).map((v) => [v.name]))('%s', async (name) => {
    const head = await fetch(`${s.url}/audio/${audio.key}`, { method: 'HEAD' });
    const v = { etag: head.headers.get('etag')!, lastModified: head.headers.get('last-modified')! };
    const vector = rangeVectors(v).find((x) => x.name === name)!;
    expect(await checkRangeVector(`${s.url}/audio/${audio.key}`, audio.bytes, vector)).toEqual([]);
  });
});

describe('serve routes', () => {
  it('/audio is inline with the exact type, nosniff and CORP', async () => {
    const res = await fetch(`${s.url}/audio/${audio.key}`);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-disposition')).toBe('inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
  it('/audio refuses non-audio assets with 404', async () => {
    expect((await fetch(`${s.url}/audio/${photo.key}`)).status).toBe(404);
  });
  it('/f serves SVG only as an attachment with a sandbox CSP and an RFC 6266 filename*', async () => {
    const res = await fetch(`${s.url}/f/${svg.key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_vil drawing.svg"; filename*=UTF-8''%C3%A9vil%20drawing.svg`,
    );
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
  it('SVG and HTML never come out of /img or /audio', async () => {
    for (const key of [svg.key, html.key]) {
      expect((await fetch(`${s.url}/img/${key}`)).status).toBe(404);
      expect((await fetch(`${s.url}/img/thumb/${key}`)).status).toBe(404);
      expect((await fetch(`${s.url}/audio/${key}`)).status).toBe(404);
    }
  });
  it('HTML uploaded as image/png is not an image and downloads as text/html attachment', async () => {
    const res = await fetch(`${s.url}/f/${html.key}`);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
  });
  it.each([
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '..',
    'abc',
    'A'.repeat(23),
    `${'A'.repeat(21)}.`,
    '%00',
    'files',
    `${'a'.repeat(22)}%2F..`,
  ])('unknown or malformed key %s → 404 on every serve route', async (key) => {
    for (const prefix of ['/f/', '/audio/', '/img/', '/img/thumb/']) {
      // raw request: fetch would normalise `..` and `%2e%2e` away before sending
      const status = await getRawStatus(s.url, `${prefix}${key}`);
      expect(status, `${prefix}${key}`).toBe(404);
    }
  });
  it('answers 304 to If-None-Match with the ETag', async () => {
    const first = await fetch(`${s.url}/f/${photo.key}`);
    const again = await fetch(`${s.url}/f/${photo.key}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});

describe('/img transform cascade', () => {
  it('thumb fits within 256×256, is cached immutable and explains the chain', async () => {
    const res = await fetch(`${s.url}/img/thumb/${photo.key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-folio-transform')).toBe(
      'steps=thumb(w256,h256,fit-inside); effective=w256,h256,fit-inside,jpeg; format=jpeg',
    );
    const { default: sharp } = await import('sharp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([256, 192]);
  });
  it('later ops override the preset; fit-cover crops exactly', async () => {
    const res = await fetch(`${s.url}/img/thumb/w100/h100/fit-cover/webp/${photo.key}`);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-folio-transform')).toContain('effective=w100,h100,fit-cover,webp');
    const { default: sharp } = await import('sharp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
  });
  it('auto picks the format from Accept and sends Vary: Accept', async () => {
    const webp = await fetch(`${s.url}/img/w64/auto/${photo.key}`, { headers: { accept: 'image/webp,*/*' } });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webp.headers.get('vary')).toBe('Accept');
    const plain = await fetch(`${s.url}/img/w64/auto/${photo.key}`, { headers: { accept: '*/*' } });
    expect(plain.headers.get('content-type')).toBe('image/jpeg');
  });
  it('serves the original for a bare /img/:key', async () => {
    const res = await fetch(`${s.url}/img/${photo.key}`);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-folio-transform')).toBe('steps=none; effective=jpeg; format=jpeg');
  });
  it('the second request is a cache hit with the same ETag, and 304 works', async () => {
    const a = await fetch(`${s.url}/img/small/png/${photo.key}`);
    const b = await fetch(`${s.url}/img/small/png/${photo.key}`);
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    const c = await fetch(`${s.url}/img/small/png/${photo.key}`, {
      headers: { 'if-none-match': a.headers.get('etag')! },
    });
    expect(c.status).toBe(304);
  });
  it.each([
    ['blur9', 'blur9'],
    ['w99999', 'w99999'],
    ['q0', 'q0'],
    ['fit-crop', 'fit-crop'],
  ])('unknown or out-of-range op %s → 400 naming it', async (op, named) => {
    const res = await fetch(`${s.url}/img/${op}/${photo.key}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toContain(named);
  });
  it('og is 1200×630 cover', async () => {
    const big = (await s.upload([filePart(await png(1600, 1000), 'wide.png', 'image/png')])).json;
    const res = await fetch(`${s.url}/img/og/${big.key}`);
    const { default: sharp } = await import('sharp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([1200, 630, 'jpeg']);
  });
});

function getRawStatus(base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    get({ hostname, port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}
