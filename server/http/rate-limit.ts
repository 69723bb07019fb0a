// Token bucket per credential (key, session, or client address on public writes): in memory for one process, or
// in the store for an instance of many nodes (createSharedRateLimiter).
import { tooManyRequests } from './errors.js';

export type RateLimitOptions = { perMinute: number; burst: number };

export function createRateLimiter({ perMinute, burst }: RateLimitOptions, now = () => Date.now()) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = perMinute / 60_000;

  /** Takes one token for `id` or throws 429 with the seconds until one is back. */
  function take(id: string): void {
    const t = now();
    const bucket = buckets.get(id) ?? { tokens: burst, at: t };
    bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, t - bucket.at) * refillPerMs);
    bucket.at = t;
    buckets.set(id, bucket);
    if (bucket.tokens < 1)
      throw tooManyRequests(Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)));
    bucket.tokens -= 1;
    if (buckets.size > 10_000) sweep(t);
  }

  function sweep(t: number): void {
    for (const [id, b] of buckets) if (b.tokens + (t - b.at) * refillPerMs >= burst) buckets.delete(id);
  }

  return { take };
}

/** Takes one token for `id` or throws 429; may answer after a round trip to where the buckets live. */
export type RateLimiter = { take(id: string): void | Promise<void> };

/** Buckets every node shares: `takeToken` is the store's (PostgreSQL keeps them in an unlogged table). */
export function createSharedRateLimiter(
  { perMinute, burst }: RateLimitOptions,
  takeToken: (id: string, perMinute: number, burst: number) => Promise<number>,
): RateLimiter {
  return {
    async take(id) {
      const wait = await takeToken(id, perMinute, burst);
      if (wait > 0) throw tooManyRequests(Math.max(1, Math.ceil(wait)));
    },
  };
}
