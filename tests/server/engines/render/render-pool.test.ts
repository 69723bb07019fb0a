// The render pool and cache: work runs in other processes, a render past its time is stopped with 422 and the
// pool goes on, a render process that dies answers its request 422 and is replaced, a RenderFailure keeps its
// status across the process, and one version renders once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendered } from '../../../../server/domains/publishing/pages/serve-rendered.js';
import { createRenderCache } from '../../../../server/engines/render/render-cache.js';
import { createRenderPool, type RenderPool } from '../../../../server/engines/render/render-pool.js';
import { HttpError } from '../../../../server/http/errors.js';
import { lineLog } from '../../../helpers/line-log.js';

let pool: RenderPool;
beforeAll(async () => {
  pool = createRenderPool({
    modules: [new URL('./fixtures/pool-tasks.ts', import.meta.url).href],
    threads: 1,
    taskTimeoutMs: 1500,
    maxQueue: 2,
    maxHeapMb: 64,
  });
  await pool.warm(); // a worker's start-up is not a render: it does not count against the time bound
});
afterAll(() => pool.close());

describe('render pool', () => {
  it('runs a task in another process', async () => {
    expect(await pool.run('test.add', { a: 2, b: 3 })).toBe(5);
    expect(pool.pids).not.toContain(process.pid);
    expect(pool.pids.length).toBe(1);
  });

  it('hands bytes back as bytes', async () => {
    const bytes = await pool.run<Uint8Array>('test.bytes', { size: 3 });
    expect([...bytes]).toEqual([7, 7, 7]);
  });

  it('answers a render process that aborts (as a native panic does) with 422 naming what it drew, then serves the next task in a new process', async () => {
    const before = pool.pids;
    const error = await pool.run('charts.abort', {}).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 422, message: expect.stringContaining('drawing this chart') });
    expect(await pool.run('test.add', { a: 1, b: 1 })).toBe(2);
    expect(pool.pids).not.toEqual(before);
  });

  it('answers a render that fills its heap with 422, then serves the next task', async () => {
    const error = await pool.run('diagrams.hog', {}).catch((e) => e);
    // on a loaded machine the heap's last collections can outlast the time bound: either way, a 422 for the diagram
    expect(error).toMatchObject({
      status: 422,
      message: expect.stringMatching(/drawing this diagram|diagram smaller/),
    });
    expect(await pool.run('test.add', { a: 2, b: 2 })).toBe(4);
  });

  it("passes an unexpected exception's own message and stack on, for the log", async () => {
    const error = (await pool.run('test.throw', {}).catch((e: unknown) => e)) as Error;
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error.message).toContain('the renderer met something odd');
    expect(error.stack).toContain('pool-tasks.ts');
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

describe('render pool, processes ending outside a render', () => {
  it('goes on when an idle render process is killed from outside (as the OOM killer may): the next task starts a new one', async () => {
    const { log, lines } = lineLog();
    const own = createRenderPool({
      modules: [new URL('./fixtures/pool-tasks.ts', import.meta.url).href],
      threads: 1,
      log,
    });
    try {
      await own.warm();
      const [pid] = own.pids;
      process.kill(pid, 'SIGKILL');
      await expect.poll(() => lines.length, { timeout: 10_000 }).toBe(1);
      expect(lines[0]).toContain('ended outside a render');
      expect(await own.run('test.add', { a: 2, b: 5 })).toBe(7);
      expect(own.pids).not.toContain(pid);
    } finally {
      await own.close();
    }
  });

  it('answers 503 when a render process cannot start (its modules are missing), each time, without waiting', async () => {
    const { log, lines } = lineLog();
    const broken = createRenderPool({
      modules: [new URL('./fixtures/no-such-tasks.ts', import.meta.url).href],
      threads: 1,
      taskTimeoutMs: 60_000,
      log,
    });
    try {
      for (const attempt of [1, 2]) {
        const error = await broken.run('charts.render', {}).catch((e) => e);
        expect(error, `attempt ${attempt}`).toBeInstanceOf(HttpError);
        expect(error).toMatchObject({ status: 503, message: expect.stringContaining('could not start') });
      }
      // a start asked for twice at once (warm beside a render) fails both, neither waits
      const both = await Promise.all([
        broken.warm().catch((e) => e),
        broken.run('charts.render', {}).catch((e) => e),
      ]);
      for (const error of both) expect(error).toMatchObject({ status: 503 });
      expect(lines.length).toBeGreaterThanOrEqual(3);
    } finally {
      await broken.close();
    }
  }, 60_000);
});

describe('render pool, cold', () => {
  it('starts a worker before the time bound starts: a slow start is not a slow render', async () => {
    const cold = createRenderPool({
      modules: [new URL('./fixtures/slow-start-tasks.ts', import.meta.url).href],
      threads: 1,
      taskTimeoutMs: 300,
    });
    try {
      const first = await Promise.all([
        cold.run('test.echo', { value: 'a' }),
        cold.run('test.echo', { value: 'b' }),
      ]);
      expect(first).toEqual(['a', 'b']);
    } finally {
      await cold.close();
    }
  });
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
