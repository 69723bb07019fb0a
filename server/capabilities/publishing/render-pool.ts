/**
 * Layout, chart rendering, rasterizing and page rendering run in worker threads (piscina), never on the
 * event loop that serves requests. Bounded three ways: threads, queued tasks (503 past it), and time and
 * memory per task (422 past them: the worker is stopped and replaced).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { HttpError, serviceUnavailable, unprocessable } from '../../http/errors.js';

export type RenderPoolOptions = {
  /** file:// URLs of modules that export `renderTasks: Record<string, (input) => output>`. */
  modules: string[];
  threads?: number;
  maxQueue?: number;
  taskTimeoutMs?: number;
  /** V8 heap per worker; a render past it fails with 422 instead of taking the server down. */
  maxHeapMb?: number;
};

type TaskAnswer = {
  value?: unknown;
  failure?: { status: number; message: string; details?: Record<string, unknown> };
};

const WORKER = new URL('./render-worker.mjs', import.meta.url).href;

export function createRenderPool(options: RenderPoolOptions) {
  const taskTimeoutMs = options.taskTimeoutMs ?? 20_000;
  const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  const pool = new Piscina({
    filename: WORKER,
    minThreads: 0, // no idle thread on a desktop that never renders: it starts on the first render
    maxThreads: threads,
    maxQueue: options.maxQueue ?? 64,
    idleTimeout: 60_000,
    workerData: { modules: options.modules },
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 1024 },
    // renders yield the CPU to the thread that answers requests (Linux; ignored elsewhere)
    niceIncrement: 10,
  });

  /** Runs `task` in a worker; its RenderFailure comes back as an HttpError with the same status. */
  async function run<T>(task: string, input: unknown): Promise<T> {
    if (pool.queueSize >= pool.options.maxQueue)
      throw serviceUnavailable('The renderer is busy; try again in a few seconds');
    const signal = AbortSignal.timeout(taskTimeoutMs);
    let answer: TaskAnswer;
    try {
      answer = await pool.run({ task, input }, { signal });
    } catch (error) {
      throw describeCrash(error, signal.aborted, taskTimeoutMs);
    }
    if (answer.failure) {
      const { status, message, details } = answer.failure;
      throw new HttpError(status, message, details);
    }
    return answer.value as T;
  }

  return {
    run,
    /** Resolves once a worker has started and loaded its modules (no time bound: start-up is not a render). */
    warm: () => pool.run({ task: 'ping' }).then(() => undefined),
    threads,
    get queued() {
      return pool.queueSize;
    },
    close: () => pool.destroy(),
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;

function describeCrash(error: unknown, timedOut: boolean, taskTimeoutMs: number): Error {
  if (timedOut)
    return unprocessable(`Rendering took longer than ${taskTimeoutMs / 1000} s; make the document smaller`);
  const message = error instanceof Error ? error.message : String(error);
  if (/ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(message))
    return unprocessable('Rendering needed more memory than a render may use; make the document smaller');
  if (/queue is at limit/i.test(message))
    return serviceUnavailable('The renderer is busy; try again shortly');
  return error instanceof Error ? error : new Error(message);
}
