/**
 * Layout, chart rendering, rasterizing and page rendering run in child processes (tinypool's child_process
 * runtime), never in the process that serves requests: a native panic or an out-of-memory render ends one
 * render process, which is replaced, and that request is answered 422. Bounded three ways: processes, queued
 * tasks (503 past it), and time and memory per task (422 past them).
 */
import { availableParallelism } from 'node:os';
import { Tinypool } from 'tinypool';
import { HttpError, serviceUnavailable, unprocessable } from '../../http/errors.js';
import type { Logger } from '../../log.js';
import { prebuilt, prebuiltFile } from '../prebuilt.js';
import { assertDocumentDepth } from './document-depth.js';

export type RenderPoolOptions = {
  /** file:// URLs of modules that export `renderTasks: Record<string, (input) => output>`. */
  modules: string[];
  /** Render processes at most. */
  threads?: number;
  maxQueue?: number;
  taskTimeoutMs?: number;
  /** V8 heap per render process; a render past it fails with 422 instead of taking the server down. */
  maxHeapMb?: number;
  /** Where a render process that ended between tasks, or could not start, is reported. */
  log?: Logger;
};

type TaskAnswer = {
  value?: unknown;
  failure?: { status: number; message: string; details?: Record<string, unknown> };
  crash?: { message: string; stack?: string };
};

// built, the entry has every task compiled in (server/render-entry.ts); from the sources it loads them through tsx
const WORKER = prebuilt
  ? prebuiltFile('render-worker.mjs').href
  : new URL('./render-worker.mjs', import.meta.url).href;

export function createRenderPool(options: RenderPoolOptions) {
  const taskTimeoutMs = options.taskTimeoutMs ?? 20_000;
  const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  const maxQueue = options.maxQueue ?? 64;
  const pool = new Tinypool({
    runtime: 'child_process',
    filename: WORKER,
    minThreads: 0, // no idle process on a desktop that never renders: it starts on the first render
    maxThreads: threads,
    maxQueue,
    idleTimeout: 60_000,
    // Only the heap bound: the server's own flags (tsx's loader, inspector) are not the renderer's.
    execArgv: [`--max-old-space-size=${options.maxHeapMb ?? 1024}`],
    // Buffers and typed arrays cross as bytes, not as JSON arrays of numbers.
    serialization: 'advanced',
    // ELECTRON_RUN_AS_NODE: under the desktop shell the forked binary is Electron's, run as plain Node.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', FOLIO_RENDER_MODULES: JSON.stringify(options.modules) },
  });

  // A process that ends while it holds no task (killed from outside, or one that could not load its modules) is
  // reported here: tinypool emits it on the pool, and unheard it would end the server. The next task starts anew.
  const startsUnderWay = new Set<(error: Error) => void>();
  pool.on('error', (error: Error) => {
    options.log?.warn(
      `A render process ended outside a render (${error.message}); the next render starts a new one`,
    );
    for (const fail of startsUnderWay) fail(error);
  });

  /** Starts a process and waits until it has loaded its modules; fails if the process ends first. */
  function warm(): Promise<void> {
    const abandon = new AbortController();
    let fail!: (error: Error) => void;
    const ended = new Promise<never>((_, reject) => {
      fail = (error) => {
        reject(error);
        abandon.abort(); // the ping would wait in the queue for a process that is gone
      };
    });
    startsUnderWay.add(fail);
    const ping = pool.run({ task: 'ping' }, { signal: abandon.signal });
    for (const settled of [ping, ended]) settled.catch(() => undefined); // the race below hears them
    return Promise.race([ping, ended])
      .then(
        () => undefined,
        (error) => Promise.reject(abandon.signal.aborted ? startFailure(error) : error),
      )
      .finally(() => startsUnderWay.delete(fail));
  }
  let started: Promise<void> | undefined;
  let ready = false;
  /** Undefined when a process is up with its modules loaded; else the start of one (after an idle stop too). */
  function workerStarting(): Promise<void> | undefined {
    if (pool.threads.length === 0) {
      started = undefined;
      ready = false;
    }
    if (ready) return undefined;
    started ??= warm().then(
      () => {
        ready = true;
      },
      (error) => {
        started = undefined;
        throw error;
      },
    );
    return started;
  }

  /**
   * Runs `task` in a render process; its RenderFailure comes back as an HttpError with the same status. The time
   * bound starts once a process is up: loading the renderers on a busy machine is not the document's fault.
   */
  async function run<T>(task: string, input: unknown): Promise<T> {
    assertDocumentDepth(input); // crossing to the render process copies the input recursively
    const starting = workerStarting();
    if (starting)
      await starting.catch((error) =>
        Promise.reject(error instanceof HttpError ? error : describeCrash(error, task, false, taskTimeoutMs)),
      );
    if (pool.queueSize >= maxQueue)
      throw serviceUnavailable('The renderer is busy; try again in a few seconds');
    const signal = AbortSignal.timeout(taskTimeoutMs);
    let answer: TaskAnswer;
    try {
      answer = await pool.run({ task, input }, { signal });
    } catch (error) {
      throw describeCrash(error, task, signal.aborted, taskTimeoutMs);
    }
    if (answer.failure) {
      const { status, message, details } = answer.failure;
      throw new HttpError(status, message, details);
    }
    if (answer.crash) throw rendererError(task, answer.crash);
    return answer.value as T;
  }

  return {
    run,
    /** Resolves once a process has started and loaded its modules (no time bound: start-up is not a render). */
    warm,
    threads,
    get queued() {
      return pool.queueSize;
    },
    /** Process ids of the render processes now running (tests stop one from outside). */
    get pids() {
      return pool.threads.map((worker) => worker.threadId);
    },
    close: () => pool.destroy(),
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;

function startFailure(error: Error): HttpError {
  return serviceUnavailable(
    `The renderer could not start: its process ended before it was ready (${error.message}; its output is in the server's log). Try again in a moment`,
  );
}

/** What a task draws, in the words of an error message: 'charts.render' → 'chart'. */
export function renderedThing(task: string): string {
  const kind = task.split('.')[0] ?? '';
  return { charts: 'chart', diagrams: 'diagram', artifacts: 'artifact page' }[kind] ?? 'document';
}

function describeCrash(error: unknown, task: string, timedOut: boolean, taskTimeoutMs: number): Error {
  const thing = renderedThing(task);
  if (timedOut)
    return unprocessable(`Rendering took longer than ${taskTimeoutMs / 1000} s; make the ${thing} smaller`);
  const message = error instanceof Error ? error.message : String(error);
  if (/queue is at limit/i.test(message))
    return serviceUnavailable('The renderer is busy; try again shortly');
  if (/exited unexpectedly/i.test(message))
    return unprocessable(
      `The renderer stopped while drawing this ${thing} (it crashed or ran out of memory); nothing was kept, and the next render starts a fresh renderer`,
      { task },
    );
  return rendererError(task, { message, stack: error instanceof Error ? error.stack : undefined });
}

/** An unexpected exception inside a render: a 500 that carries the renderer's own message and stack to the log. */
function rendererError(task: string, crash: { message: string; stack?: string }): Error {
  const error = new Error(`Render task ${task} failed: ${crash.message}`);
  if (crash.stack) error.stack = `${error.message}\n--- in the render process ---\n${crash.stack}`;
  return error;
}
