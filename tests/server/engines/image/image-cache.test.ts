import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createImageCache } from '../../../../server/engines/image/image-cache.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-img-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const render = (bytes: number, counter?: { n: number }) => async (tmp: string) => {
  if (counter) counter.n++;
  await new Promise((r) => setTimeout(r, 10));
  await writeFile(tmp, Buffer.alloc(bytes));
};

describe('image cache', () => {
  it('renders a variant once, even for concurrent requests', async () => {
    const cache = createImageCache({ dir, maxBytes: 1000 });
    const counter = { n: 0 };
    const paths = await Promise.all(
      Array.from({ length: 5 }, () => cache.get('k1', 'w10.webp', render(10, counter))),
    );
    expect(new Set(paths).size).toBe(1);
    expect(counter.n).toBe(1);
    await cache.get('k1', 'w10.webp', render(10, counter));
    expect(counter.n).toBe(1);
  });
  it('evicts the least recently used variants past the byte bound', async () => {
    const cache = createImageCache({ dir, maxBytes: 250 });
    await cache.get('a', 'v.png', render(100));
    await cache.get('b', 'v.png', render(100));
    await cache.get('a', 'v.png', render(100)); // touch a: b is now the oldest
    await cache.get('c', 'v.png', render(100));
    expect(cache.stats()).toEqual({ entries: 2, bytes: 200 });
    expect(await readdir(join(dir, 'b'))).toEqual([]);
    expect(await readdir(join(dir, 'a'))).toEqual(['v.png']);
  });
  it('a failed render leaves no temp file and is retried next time', async () => {
    const cache = createImageCache({ dir, maxBytes: 1000 });
    await expect(cache.get('k', 'v.png', async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await readdir(join(dir, 'k'))).toEqual([]);
    await expect(cache.get('k', 'v.png', render(5))).resolves.toContain('v.png');
  });
  it('removeKey drops every variant of an asset; a restart re-indexes what is on disk', async () => {
    const cache = createImageCache({ dir, maxBytes: 1000 });
    await cache.get('k', 'a.png', render(5));
    await cache.get('k', 'b.png', render(5));
    await cache.get('other', 'a.png', render(7));
    await cache.removeKey('k');
    expect(cache.stats()).toEqual({ entries: 1, bytes: 7 });
    const reopened = createImageCache({ dir, maxBytes: 1000 });
    await reopened.get('other', 'a.png', async () => expect.unreachable('should be a hit'));
    expect(reopened.stats()).toEqual({ entries: 1, bytes: 7 });
  });
});
