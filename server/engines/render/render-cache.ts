/**
 * Renders of one document version never change, so they are kept by key (kind, id, version, output) in a
 * byte-bounded LRU, and concurrent requests for the same key share one render (lru-cache's fetch coalesces).
 */
import { LRUCache } from 'lru-cache';

export type Rendered = { body: Buffer; contentType: string; etag: string; [field: string]: unknown };

type Produce = () => Promise<Rendered>;

export function createRenderCache({ maxBytes = 256 << 20 }: { maxBytes?: number } = {}) {
  let renders = 0;
  const cache = new LRUCache<string, Rendered, Produce>({
    maxSize: maxBytes,
    sizeCalculation: (value) => Math.max(1, value.body.length),
    fetchMethod: async (_key, _stale, { context }) => {
      renders += 1;
      return context();
    },
  });

  return {
    /** The cached render under `key`, or `produce()`'s result, shared with any request already waiting on it. */
    async get(key: string, produce: Produce): Promise<Rendered> {
      const value = await cache.fetch(key, { context: produce });
      if (!value) throw new Error(`render of ${key} produced nothing`);
      return value;
    },
    peek: (key: string) => cache.peek(key),
    /** How many renders ran (not served from cache): tests and the bench read it. */
    get renders() {
      return renders;
    },
    clear: () => cache.clear(),
  };
}

export type RenderCache = ReturnType<typeof createRenderCache>;
