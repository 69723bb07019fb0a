/** Content for e2e screens, made through the real API with a key (as an agent would). */
import sharp from 'sharp';
import type { TestServer } from '../helpers/server.js';

const COLOURS = ['#e5484d', '#3e63dd', '#30a46c', '#f76b15', '#8e4ec6', '#12a594'];

export async function pngBytes(i: number, width = 640, height = 420): Promise<Buffer> {
  const circle = `<svg width="${width}" height="${height}"><circle cx="${120 + i * 60}" cy="${height / 2}" r="${height / 3}" fill="white" fill-opacity="0.45"/></svg>`;
  return sharp({ create: { width, height, channels: 3, background: COLOURS[i % COLOURS.length] } })
    .composite([{ input: Buffer.from(circle) }])
    .png()
    .toBuffer();
}

export async function upload(
  srv: TestServer,
  key: string,
  name: string,
  bytes: Buffer,
  type: string,
  tags?: string,
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  if (tags) form.append('tags', tags);
  const res = await fetch(`${srv.url}/api/v1/uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${key}` },
  });
  if (res.status !== 201) throw new Error(`seed upload ${name}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; key: string };
}

export async function seedImages(srv: TestServer, key: string, count = 6) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      (
        await upload(
          srv,
          key,
          `photo-${i + 1}.png`,
          await pngBytes(i),
          'image/png',
          i % 2 ? 'blog,hero' : 'drafts',
        )
      ).id,
    );
  return ids;
}

/** An incompressible PNG (random pixels), for uploads that must take visible time. */
export async function noisyPng(seed: number, width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let x = 2463534242 + seed;
  for (let i = 0; i < pixels.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    pixels[i] = x & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}
