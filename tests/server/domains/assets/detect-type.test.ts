import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectType } from '../../../../server/domains/assets/ingest/detect-type.js';
import { sanitizeFilename } from '../../../../server/domains/uploads/direct/receive-multipart.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-detect-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function detect(bytes: Buffer | string, name: string) {
  const path = join(dir, `f-${Math.random()}`);
  await writeFile(path, bytes);
  return detectType(path, name);
}

describe('detectType', () => {
  it('detects a PNG whatever the name says', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    expect(await detect(png, 'song.mp3')).toEqual({ contentType: 'image/png', assetType: 'image' });
  });
  it('detects SVG by content, also after an XML declaration and comment', async () => {
    const svg =
      '<?xml version="1.0"?>\n<!-- hi --><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    expect(await detect(svg, 'x.png')).toEqual({ contentType: 'image/svg+xml', assetType: 'svg' });
  });
  it('never calls HTML an image', async () => {
    expect((await detect('<!doctype html><script>alert(1)</script>', 'cat.png')).assetType).toBe('other');
  });
  it('text by extension, binary noise as octet-stream', async () => {
    expect((await detect('a,b\n1,2\n', 'data.csv')).contentType).toBe('text/csv; charset=utf-8');
    expect((await detect(Buffer.from([0, 1, 2, 3, 255, 0]), 'x.bin')).contentType).toBe(
      'application/octet-stream',
    );
  });
});

describe('sanitizeFilename', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Windows\\evil.exe', 'evil.exe'],
    ['a\r\nb.txt', 'ab.txt'],
    ['\u202Egnp.exe', 'gnp.exe'],
    ['..', 'file'],
    ['', 'file'],
  ])('%j → %j', (input, output) => expect(sanitizeFilename(input)).toBe(output));
  it('caps at 255 bytes', () =>
    expect(Buffer.byteLength(sanitizeFilename('é'.repeat(300)))).toBeLessThanOrEqual(255));
});
