/**
 * One long-lived folio-whisper-worker child (resources/whisper-worker/worker.cpp): newline-delimited
 * JSON both ways, one job at a time, restarted on the next job if it dies. A job that fails on a GPU is run
 * again on the CPU, where this worker stays.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { DevicePreference, LoadedDevice } from './device.js';
import { EngineError, TranscriptionAbortedError } from './errors.js';
import type { GuardOptions, VadOptions, VadSummary } from './types.js';
import { jobError, parseEvent, type RawSegment, type WorkerEvent } from './worker-protocol.js';

export type { RawSegment } from './worker-protocol.js';

export interface WorkerJob {
  pcmPath: string;
  language?: string;
  prompt?: string;
  threads?: number;
  task?: 'transcribe' | 'translate';
  vad?: VadOptions;
  guards?: GuardOptions;
  noTimestamps?: boolean;
}

/** What a finished job reports beside its segments. */
export type WorkerDone = { language: string; vad?: VadSummary };

export interface WorkerJobHandlers {
  onProgress?(percent: number): void;
  onSegment?(segment: RawSegment): void;
  /** The job failed on the GPU and starts over on the CPU: the segments it sent so far are void. */
  onRestart?(): void;
  signal?: AbortSignal;
}

export interface WorkerOptions {
  workerPath: string;
  modelPath: string;
  threads: number;
  /** whisper.cpp alignment-head preset ("tiny.en", "base", ...); the worker falls back to plain token times if it does not fit. */
  dtwPreset?: string;
  /** Default auto. */
  device?: DevicePreference;
  /** A job whose computation sends no sign of life for this long is ended (DEFAULT_STALL_MS). */
  stallMs?: number;
}

interface RunningJob {
  id: string;
  handlers: WorkerJobHandlers;
  resolve(done: WorkerDone): void;
  reject(err: Error): void;
  /** Any event of the job's: the worker's computation advances. */
  alive(): void;
  cancelled: boolean;
  stalled: boolean;
}

// the worker stops a job within one ggml graph node of a cancel (see worker.cpp); one still busy after
// this long is stuck, so it is killed and reloaded in the background
const CANCEL_GRACE_MS = 750;

/**
 * How long a job may go without a sign of life before it is ended. The worker sends one at least once a second
 * while its computation advances (worker.cpp `beat`), so only a hung kernel or a stopped process reaches this.
 */
export const DEFAULT_STALL_MS = 120_000;

export function createWorkerProcess(options: WorkerOptions) {
  let child: ChildProcessWithoutNullStreams | undefined;
  let loading: Promise<void> | undefined;
  let running: RunningJob | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let loads = 0;
  let dtw = false;
  let loadedDevice: LoadedDevice | undefined;
  let nextId = 1;
  let closed = false;
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  /** Why the worker left the GPU after a job failed there; from then on it starts on the CPU. */
  let gpuFailure: string | undefined;
  /** Job errors the GPU may have caused: the worker died, or whisper.cpp failed to compute (not bad input). */
  const deviceFaults = new WeakSet<Error>();
  /** Starts that ended in a crash before the model loaded (not a load error the worker reported). */
  const loadCrashes = new WeakSet<Error>();

  function start(): Promise<void> {
    if (closed) return Promise.reject(new EngineError('failed', 'the whisper engine is closed'));
    loading ??= spawnWorker().catch((err) => {
      loading = undefined;
      // a GPU driver or module that crashes the worker as it loads: once more on the CPU, which opens no GPU module
      if (!loadCrashes.has(err) || gpuFailure || options.device === 'cpu') throw err;
      gpuFailure = `the worker crashed while loading the model on the GPU (${(err as Error).message})`;
      return start();
    });
    return loading;
  }

  function spawnWorker(): Promise<void> {
    return new Promise((resolve, reject) => {
      const args = ['--model', options.modelPath, '--threads', String(options.threads)];
      if (options.dtwPreset) args.push('--dtw', options.dtwPreset);
      // the backend modules are installed beside the worker (scripts/lib/whisper-build.ts)
      args.push('--device', gpuFailure ? 'cpu' : (options.device ?? 'auto'));
      args.push('--modules', dirname(options.workerPath));
      const proc = spawn(options.workerPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      child = proc;
      let loaded = false;
      let loadError: EngineError | undefined;
      let stderr = '';
      let fatal: string | undefined; // ggml's message as it aborted the process
      proc.stdin.on('error', () => {}); // EPIPE after a crash; the exit handler reports it
      proc.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-4096);
      });
      createInterface({ input: proc.stdout }).on('line', (line) => {
        const event = parseEvent(line);
        if (!event) return;
        if (event.event === 'fatal') fatal = event.message;
        else if (event.event === 'loaded') {
          loaded = true;
          loads++;
          dtw = event.dtw === true;
          if (event.device)
            loadedDevice = {
              device: event.device,
              preference: options.device ?? 'auto',
              fallback: gpuFailure ?? event.fallback ?? null,
              gpuDevices: event.gpuDevices ?? 0,
              skipped: (event.skipped ?? []).map(({ module, reason }) => ({
                module,
                // ggml's prefix repeats the module's path: the library it lacks is the reason
                reason: reason.replace(/^load_backend: failed to load [^:]+: /, ''),
              })),
            };
          resolve();
        } else if (!loaded && event.event === 'error') {
          loadError = new EngineError(
            event.code === 'model_missing' ? 'model_missing' : 'model_invalid',
            event.message ?? 'the whisper worker could not load the model',
          );
        } else handleJobEvent(event);
      });
      proc.on('error', (err) => {
        reject(
          new EngineError(
            'not_built',
            `cannot start the whisper worker ${options.workerPath}: ${err.message}`,
          ),
        );
      });
      proc.on('exit', (code, signal) => {
        if (child === proc) {
          child = undefined;
          loading = undefined;
        }
        const detail = signal ? `signal ${signal}` : `code ${code}`;
        if (!loaded) {
          const crash = new EngineError(
            'model_invalid',
            `whisper worker exited (${detail}) while loading the model${fatal ? `: ${fatal}` : crashReason(stderr)}`,
          );
          if (!loadError && signal) loadCrashes.add(crash);
          reject(loadError ?? crash);
        }
        const job = running;
        running = undefined;
        if (job?.stalled) {
          const stalled = new EngineError(
            'stalled',
            `the transcription made no progress for ${Math.round(stallMs / 1000)} s, so it was stopped`,
          );
          deviceFaults.add(stalled); // a hung GPU kernel: the job runs again on the CPU
          job.reject(stalled);
        } else if (job?.cancelled) {
          job.reject(new TranscriptionAbortedError());
          start().catch(() => undefined); // the next job should not wait for the model load
        } else if (job) {
          const crash = new EngineError(
            'worker_crashed',
            `whisper worker exited (${detail}) during a job${fatal ? `: ${fatal}` : crashReason(stderr)}`,
          );
          deviceFaults.add(crash);
          job.reject(crash);
        }
      });
    });
  }

  function handleJobEvent(event: WorkerEvent): void {
    const job = running;
    if (!job || event.id !== job.id) return;
    job.alive();
    if (event.event === 'progress') job.handlers.onProgress?.(event.percent ?? 0);
    else if (event.event === 'segment') job.handlers.onSegment?.(event as unknown as RawSegment);
    else if (event.event === 'done') {
      running = undefined;
      job.resolve({
        language: event.language ?? '',
        ...(typeof event.vad === 'object' ? { vad: event.vad } : {}),
      });
    } else if (event.event === 'error') {
      running = undefined;
      const error = jobError(event);
      if (event.code === 'failed') deviceFaults.add(error); // whisper_full's own failure, e.g. a GPU kernel's
      job.reject(error);
    }
  }

  function send(command: Record<string, unknown>): void {
    child?.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Runs a job; one that fails on the GPU runs again once, on the CPU. */
  async function runNow(job: WorkerJob, handlers: WorkerJobHandlers): Promise<WorkerDone> {
    try {
      return await attempt(job, handlers);
    } catch (error) {
      const onGpu = loadedDevice?.device.kind === 'gpu' && !gpuFailure;
      if (!onGpu || closed || !deviceFaults.has(error as Error)) throw error;
      await restartOnCpu(`the GPU failed during a job: ${(error as Error).message}`);
      handlers.onRestart?.();
      return attempt(job, handlers);
    }
  }

  /** Stops the worker (a GPU that failed a job may be left in any state); the next start loads on the CPU. */
  async function restartOnCpu(reason: string): Promise<void> {
    gpuFailure = reason;
    const proc = child;
    if (proc) {
      const exited = once(proc, 'exit');
      proc.kill('SIGKILL');
      await exited;
    }
  }

  async function attempt(job: WorkerJob, handlers: WorkerJobHandlers): Promise<WorkerDone> {
    if (handlers.signal?.aborted) throw new TranscriptionAbortedError();
    await start();
    if (handlers.signal?.aborted) throw new TranscriptionAbortedError();
    const id = `j${nextId++}`;
    const proc = child;
    if (!proc) throw new EngineError('worker_crashed', 'whisper worker exited right after loading the model');
    return new Promise((resolve, reject) => {
      let killTimer: NodeJS.Timeout | undefined;
      const watchdog = setTimeout(() => {
        if (running?.id !== id) return;
        running.stalled = true;
        proc.kill('SIGKILL');
      }, stallMs);
      const onAbort = () => {
        if (running?.id !== id) return;
        running.cancelled = true;
        send({ cmd: 'cancel', id });
        killTimer = setTimeout(() => proc.kill('SIGKILL'), CANCEL_GRACE_MS);
      };
      const cleanup = () => {
        clearTimeout(killTimer);
        clearTimeout(watchdog);
        handlers.signal?.removeEventListener('abort', onAbort);
      };
      running = {
        id,
        handlers,
        cancelled: false,
        stalled: false,
        alive: () => watchdog.refresh(),
        resolve: (v) => {
          cleanup();
          resolve(v);
        },
        reject: (e) => {
          cleanup();
          reject(e);
        },
      };
      handlers.signal?.addEventListener('abort', onAbort, { once: true });
      send({
        cmd: 'transcribe',
        id,
        pcm: job.pcmPath,
        language: job.language && wellFormed(job.language),
        prompt: job.prompt && wellFormed(job.prompt),
        threads: job.threads,
        task: job.task,
        vad: job.vad,
        guards: job.guards,
        noTimestamps: job.noTimestamps || undefined,
      });
    });
  }

  /** Runs a job after the ones already queued; a job cancelled while queued never reaches the worker. */
  function run(job: WorkerJob, handlers: WorkerJobHandlers = {}): Promise<WorkerDone> {
    const result = queue.then(() => runNow(job, handlers));
    queue = result.catch(() => undefined);
    return result;
  }

  async function close(): Promise<void> {
    closed = true;
    const proc = child;
    if (!proc) return;
    const exited = new Promise((r) => proc.once('exit', r));
    send({ cmd: 'quit' });
    proc.stdin.end();
    const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  return {
    start,
    run,
    close,
    status: () => ({ pid: child?.pid, loads, dtw }),
    /** The device of the last start; undefined until the worker has loaded the model once. */
    device: () => loadedDevice,
  };
}

export type WorkerProcess = ReturnType<typeof createWorkerProcess>;

/** Lone UTF-16 surrogates as U+FFFD: the worker's JSON parser refuses their escapes, and the job would never start. */
function wellFormed(text: string): string {
  return text.replace(/\p{Cs}/gu, '\uFFFD');
}

/**
 * What a crashed worker said about why, for the job's error: ggml's own message (an assertion, a CUDA error, out of
 * memory) rather than the last line of the backtrace that follows it.
 */
export function crashReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reason =
    lines.find((line) => /GGML_ASSERT|ggml_abort|CUDA error|out of memory|error:/i.test(line)) ??
    lines.filter((line) => !/^(#\d+|\d+\s*:|\/.*\(\+0x|\[0x)/.test(line)).pop();
  return reason ? `: ${reason}` : '';
}
