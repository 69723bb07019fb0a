/**
 * Derivatives on disk under <dataDir>/cache/img/<assetKey>/<variant>, bounded in total bytes: least recently used
 * entries are evicted. Renders of the same variant are coalesced and run at most `concurrency` at a time.
 */
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { nanoid } from 'nanoid';

export interface ImageCacheOptions {
  dir: string;
  maxBytes: number;
  concurrency?: number;
}

export function createImageCache({ dir, maxBytes, concurrency = 2 }: ImageCacheOptions) {
  const entries = new Map<string, number>(); // path → size, in least-recently-used order
  const inflight = new Map<string, Promise<string>>();
  let total = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  const ready = scan().catch(() => undefined); // a cache we cannot index starts empty rather than failing every request

  /** Path of the cached variant, rendering it with `render(tmpPath)` on a miss. */
  async function get(
    key: string,
    variant: string,
    render: (tmpPath: string) => Promise<void>,
  ): Promise<string> {
    await ready;
    const path = join(dir, key, variant);
    const size = entries.get(path);
    if (size !== undefined) {
      entries.delete(path);
      entries.set(path, size);
      return path;
    }
    const pending = inflight.get(path) ?? fill(path, render).finally(() => inflight.delete(path));
    inflight.set(path, pending);
    return pending;
  }

  async function fill(path: string, render: (tmpPath: string) => Promise<void>): Promise<string> {
    await acquire();
    const tmp = `${path}.${nanoid(8)}.tmp`;
    try {
      await mkdir(join(path, '..'), { recursive: true });
      await render(tmp);
      const { size } = await stat(tmp);
      await rename(tmp, path);
      entries.set(path, size);
      total += size;
      await evict(path);
      return path;
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    } finally {
      release();
    }
  }

  async function evict(keep: string): Promise<void> {
    for (const [path, size] of entries) {
      if (total <= maxBytes) return;
      if (path === keep) continue;
      entries.delete(path);
      total -= size;
      await unlink(path).catch(() => undefined);
    }
  }

  /** Drops every derivative of an asset (on delete). */
  async function removeKey(key: string): Promise<void> {
    await ready;
    const prefix = `${join(dir, key)}/`;
    for (const [path, size] of entries) {
      if (!path.startsWith(prefix)) continue;
      entries.delete(path);
      total -= size;
    }
    await rm(join(dir, key), { recursive: true, force: true });
  }

  async function scan(): Promise<void> {
    await mkdir(dir, { recursive: true });
    for (const key of await readdir(dir)) {
      for (const name of await readdir(join(dir, key)).catch(() => [] as string[])) {
        const path = join(dir, key, name);
        if (name.endsWith('.tmp')) await rm(path, { force: true });
        else entries.set(path, (await stat(path)).size);
      }
    }
    total = [...entries.values()].reduce((a, b) => a + b, 0);
  }

  function acquire(): Promise<void> {
    if (running < concurrency) return Promise.resolve(void running++);
    return new Promise((resolve) => waiting.push(() => resolve(void running++)));
  }
  function release(): void {
    running--;
    waiting.shift()?.();
  }

  return { get, removeKey, stats: () => ({ entries: entries.size, bytes: total }) };
}

export type ImageCache = ReturnType<typeof createImageCache>;
