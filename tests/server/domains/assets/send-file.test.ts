import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFile, statEtag } from '../../../../server/http/send-file.js';
import { checkRangeVector } from './range-check.js';
import { rangeVectors, SIZE } from './range-vectors.js';

let server: Server;
let url: string;
let dir: string;
const file = randomBytes(SIZE);
let validators: { etag: string; lastModified: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-send-file-'));
  const path = join(dir, 'f.bin');
  await writeFile(path, file);
  await writeFile(join(dir, 'empty.bin'), '');
  const s = await stat(path);
  validators = {
    etag: statEtag(s),
    lastModified: new Date(Math.floor(s.mtimeMs / 1000) * 1000).toUTCString(),
  };
  server = createServer((req, res) => {
    const target = req.url === '/empty' ? join(dir, 'empty.bin') : path;
    void sendFile(req, res, { path: target, contentType: 'application/octet-stream' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sendFile range vectors', () => {
  it('has at least 25 vectors', () => expect(rangeVectors(validators).length).toBeGreaterThanOrEqual(25));
  it.each(rangeVectors({ etag: '"placeholder"', lastModified: '' }).map((v) => [v.name]))(
    '%s',
    async (name) => {
      const vector = rangeVectors(validators).find((v) => v.name === name)!;
      expect(await checkRangeVector(url, file, vector)).toEqual([]);
    },
  );
});

describe('sendFile headers', () => {
  it('always sends nosniff, CORP and the exact type', async () => {
    const res = await fetch(url);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
  });
  it('answers any range on an empty file with 416 bytes */0', async () => {
    const res = await fetch(url.replace('/f', '/empty'), { headers: { range: 'bytes=0-0' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */0');
    expect((await res.json()).error).toMatch(/Range/);
  });
  it('serves an empty file in full with Content-Length 0', async () => {
    const res = await fetch(url.replace('/f', '/empty'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
  });
});
