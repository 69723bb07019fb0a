// The render pool and cache: work runs off the event loop, a render past its time is stopped with 422 and
// the pool goes on, a RenderFailure keeps its status across the thread, and one version renders once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderCache } from '../../../server/capabilities/publishing/render-cache.js';
import { createRenderPool, type RenderPool } from '../../../server/capabilities/publishing/render-pool.js';
import { rendered } from '../../../server/capabilities/publishing/serve-rendered.js';
import { HttpError } from '../../../server/http/errors.js';

let pool: RenderPool;
beforeAll(async () => {
  pool = createRenderPool({
    modules: [new URL('./fixtures/pool-tasks.ts', import.meta.url).href],
    threads: 1,
    taskTimeoutMs: 1500,
    maxQueue: 2,
  });
  await pool.warm(); // a worker's start-up is not a render: it does not count against the time bound
});
afterAll(() => pool.close());

describe('render pool', () => {
  it('runs a task in a worker', async () => {
    expect(await pool.run('test.add', { a: 2, b: 3 })).toBe(5);
  });

  it('answers a RenderFailure as an HttpError with its status and details', async () => {
    const error = await pool.run('test.refuse', {}).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 413, message: 'too many rows', details: { limit: 10 } });
  });

  it('stops a render past its time with 422 while the event loop stays free, then serves the next task', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const error = await pool.run('test.spin', {}).catch((e) => e);
    clearInterval(timer);
    expect(error).toMatchObject({ status: 422, message: expect.stringContaining('longer than 1.5 s') });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(10); // the loop kept turning while the worker spun (a blocked loop gives 0 or 1)
    await pool.warm(); // the stopped worker is replaced
    expect(await pool.run('test.add', { a: 1, b: 1 })).toBe(2);
  });

  it('answers 503 when the queue is full', async () => {
    const spinning = [pool.run('test.spin', {}), pool.run('test.spin', {}), pool.run('test.spin', {})].map(
      (p) => p.catch((e) => e),
    );
    const busy = await pool.run('test.add', { a: 1, b: 1 }).catch((e) => e);
    expect(busy).toMatchObject({ status: 503 });
    await Promise.all(spinning);
    await pool.warm();
  }, 60_000);
});

describe('render cache', () => {
  it('renders one key once, sharing the render between concurrent requests', async () => {
    const cache = createRenderCache({ maxBytes: 1 << 20 });
    let produced = 0;
    const produce = async () => {
      produced++;
      await new Promise((r) => setTimeout(r, 50));
      return rendered('<svg/>', 'image/svg+xml');
    };
    const answers = await Promise.all([1, 2, 3].map(() => cache.get('diagrams:d1@1:svg', produce)));
    expect(produced).toBe(1);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
    await cache.get('diagrams:d1@1:svg', produce);
    expect(produced).toBe(1);
    await cache.get('diagrams:d1@2:svg', produce);
    expect(produced).toBe(2);
  });

  it('does not keep a failed render', async () => {
    const cache = createRenderCache();
    await expect(cache.get('k', () => Promise.reject(new Error('bad')))).rejects.toThrow('bad');
    expect((await cache.get('k', async () => rendered('ok', 'text/plain'))).body.toString()).toBe('ok');
  });
});
