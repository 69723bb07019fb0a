// A small blob held whole in memory (sync's blobs cut out of a pack) is inspected from its bytes, never written to a
// temporary file first: it must come out exactly as the same file on disk would (type, media facts, size, hash),
// and a refusal must say the same.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inspectFile } from '../../../../server/domains/assets/ingest/inspect-file.js';
import { jpeg, png, wav } from './fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-inspect-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function both(bytes: Buffer, filename: string, rules = {}) {
  const path = join(dir, `f-${Math.random()}`);
  await writeFile(path, bytes);
  const [fromFile, fromBytes] = await Promise.allSettled([
    inspectFile({ path, filename }, rules),
    inspectFile({ bytes, filename }, rules),
  ]);
  return { fromFile, fromBytes };
}

const rotated = () =>
  sharp({ create: { width: 30, height: 20, channels: 3, background: '#123' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

it.each([
  ['a PNG', () => png(64, 48), 'shot.png', { assetType: 'image', width: 64, height: 48 }],
  ['a JPEG turned by EXIF', rotated, 'photo.jpg', { assetType: 'image', width: 20, height: 30 }],
  ['a WAV', async () => wav(1.5), 'take.wav', { assetType: 'audio', duration: 1.5 }],
  [
    'an SVG',
    async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    'x.png',
    { assetType: 'svg' },
  ],
  ['CSV text', async () => Buffer.from('a,b\n1,2\n'), 'data.csv', { contentType: 'text/csv; charset=utf-8' }],
  [
    'noise',
    async () => Buffer.from([0, 1, 2, 3, 255, 0]),
    'x.bin',
    { contentType: 'application/octet-stream' },
  ],
])('inspects %s from memory as from disk', async (_name, make, filename, expected) => {
  const bytes = await make();
  const { fromFile, fromBytes } = await both(bytes, filename);
  expect(fromFile).toMatchObject({ status: 'fulfilled', value: { ...expected, size: bytes.length } });
  expect(fromBytes).toEqual(fromFile);
});

it('refuses from memory as from disk', async () => {
  const bytes = await jpeg(40, 30);
  const tooBig = await both(bytes, 'big.jpg', { maxBytes: 100 });
  const wrongType = await both(bytes, 'photo.jpg', { allowedTypes: ['audio'] });
  for (const { fromFile, fromBytes } of [tooBig, wrongType]) {
    expect(fromFile.status).toBe('rejected');
    expect(fromBytes).toEqual(fromFile);
  }
});
