/**
 * The engine for the active model: `--whisper-model` from start-up, else the model chosen in the model manager.
 * Built lazily (no model, no worker) and rebuilt when the active model changes. When there is no usable model,
 * `engine()` throws an error whose message says how to install one (docs/headless.md).
 */
import { access, constants } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Logger } from '../../log.js';
import { type DevicePreference, describeDevice, hasGpuModule, type TranscriptionDevice } from './device.js';
import { EngineError } from './errors.js';
import { ffmpegChooser } from './ffmpeg-binary.js';
import { modelsDir } from './model-files.js';
import { readModelHeader } from './model-header.js';
import type { WhisperEngine } from './types.js';
import { type AudioDecoder, createWhisperEngine, defaultWorkerPath } from './whisper-engine.js';

export interface ActiveEngineDeps {
  /** The model chosen in the model manager (domains/models' store): a file name in the models folder. */
  modelStore: { getActiveFile(): Promise<string | undefined> };
  dataDir: string;
  /** `--whisper-model`: wins until a model is chosen at run time (PUT /api/v1/models/active). */
  overridePath?: string;
  threads: number;
  /** CPU or GPU (`--whisper-device`, the desktop's saved setting); default auto. */
  device?: DevicePreference;
  /** The worker binary, where it is not in the checkout's build/whisper/ (a packaged app). */
  workerPath?: string;
  tmpDir: string;
  /** Which ffmpeg decodes uploads and the longest recording; the engine's default when not given (tests). */
  decoder?: AudioDecoder;
  log: Logger;
  /** A job with no sign of life for this long is ended (worker-process.ts DEFAULT_STALL_MS). */
  stallMs?: number;
  /** For tests: a fake engine instead of the whisper.cpp worker. */
  createEngine?: (modelPath: string) => WhisperEngine;
}

export const NO_MODEL_MESSAGE =
  'No Whisper model is installed: install one with the model manager (POST /api/v1/models/<name>/download, e.g. tiny.en, then PUT /api/v1/models/active) or start Folio with --whisper-model <path to a ggml model file>';

/** An engine and the jobs using it: one that is no longer current closes once its last job has finished. */
type Entry = { path: string; engine: WhisperEngine; users: number; retired: boolean };

export function createActiveEngine(deps: ActiveEngineDeps) {
  let override = deps.overridePath;
  let current: Entry | undefined;
  const retiring = new Set<Entry>();
  let preference: DevicePreference = deps.device ?? 'auto';
  let lastDevice: TranscriptionDevice | undefined;
  const decoder = deps.decoder ?? { ffmpeg: ffmpegChooser(undefined) };
  const build =
    deps.createEngine ??
    ((modelPath: string) =>
      createWhisperEngine({
        modelPath,
        threads: deps.threads,
        tmpDir: deps.tmpDir,
        workerPath: deps.workerPath,
        decoder,
        device: preference,
        stallMs: deps.stallMs,
      }));

  /** The path of the model to use, or undefined when none is configured. */
  async function activePath(): Promise<string | undefined> {
    if (override) return override;
    const file = await deps.modelStore.getActiveFile();
    return file ? join(modelsDir(deps.dataDir), file) : undefined;
  }

  /** The current entry for `path`, replacing (and retiring) one for another model. */
  function entryFor(path: string): Entry {
    if (current?.path === path) return current;
    if (current) retire(current);
    current = { path, engine: build(path), users: 0, retired: false };
    return current;
  }

  /** The engine stops taking new work; its worker quits once the jobs it runs have finished. */
  function retire(entry: Entry): void {
    entry.retired = true;
    if (current === entry) current = undefined;
    if (entry.users > 0) retiring.add(entry);
    else void entry.engine.close();
  }

  function release(entry: Entry): void {
    entry.users--;
    if (entry.retired && entry.users === 0) {
      retiring.delete(entry);
      void entry.engine.close();
    }
  }

  /** Waits for the entry's model to load; the error names the model and the fix. */
  async function loaded(entry: Entry): Promise<void> {
    try {
      await entry.engine.ready();
    } catch (error) {
      throw new EngineError((error as EngineError).code ?? 'failed', describeProblem(entry.path, error));
    }
  }

  async function resolvePath(modelPath?: string): Promise<string> {
    const path = modelPath ?? (await activePath());
    if (!path) throw new EngineError('model_missing', NO_MODEL_MESSAGE);
    return path;
  }

  /** The engine for the active model (or `modelPath`, an installed one), loaded; throws with a message that names the model and the fix. */
  async function engine(modelPath?: string): Promise<WhisperEngine> {
    const entry = entryFor(await resolvePath(modelPath));
    await loaded(entry);
    return entry.engine;
  }

  /**
   * Runs `work` on the engine for the active model (or `modelPath`). The engine stays open until `work` settles,
   * even if the device or the model changes meanwhile: a change never cuts a job short. One that comes while the
   * model loads, before the job starts, moves the job to the new engine.
   */
  async function use<T>(
    modelPath: string | undefined,
    work: (engine: WhisperEngine) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const entry = entryFor(await resolvePath(modelPath));
      entry.users++;
      try {
        await loaded(entry);
        if (entry.retired && attempt < 3) continue;
        return await work(entry.engine);
      } finally {
        release(entry);
      }
    }
  }

  function describeProblem(path: string, error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const origin =
      path === override && deps.overridePath ? `given by --whisper-model (${path})` : `${basename(path)}`;
    return `The Whisper model ${origin} cannot be used: ${message}. Install a model with the model manager or pass a valid ggml model file to --whisper-model`;
  }

  /** Whether a job could run here now: a model file to read and a worker to run it (nothing is loaded). */
  async function canTranscribe(): Promise<boolean> {
    const path = await activePath();
    if (!path) return false;
    const worker = deps.workerPath ?? defaultWorkerPath;
    return Promise.all([access(path, constants.R_OK), access(worker, constants.X_OK)]).then(
      () => true,
      () => false,
    );
  }

  /** Start-up check: reports an unusable --whisper-model on the console; never throws. */
  async function checkAtStart(): Promise<void> {
    const path = await activePath();
    if (!path) return;
    try {
      await readModelHeader(path);
    } catch (error) {
      deps.log.warn(`Whisper model problem: ${describeProblem(path, error)}`);
    }
  }

  /** The file name of the model that would run a job now (recorded on transcripts). */
  async function activeModelName(): Promise<string | null> {
    const path = await activePath();
    return path ? basename(path) : null;
  }

  /** A model chosen at run time replaces --whisper-model for the rest of this run. */
  function useInstalled(): void {
    override = undefined;
  }

  /** Closes every engine, those still finishing a job included (the queue has stopped its jobs by then). */
  async function close(): Promise<void> {
    const entries = [...retiring, ...(current ? [current] : [])];
    current = undefined;
    retiring.clear();
    await Promise.all(entries.map((entry) => entry.engine.close()));
  }

  /**
   * The device the worker runs on, from its last start (null before it has loaded a model once: starting it
   * only to answer would load the model, seconds and a GPU's memory for a large one).
   */
  function device(): TranscriptionDevice | null {
    const loaded = current?.engine.device();
    if (loaded) lastDevice = describeDevice(loaded);
    return lastDevice ?? null;
  }

  /** Whether a GPU can run transcriptions: one the worker found, or before it started, a GPU module built beside it. */
  function gpuAvailable(): boolean {
    const loaded = current?.engine.device();
    if (loaded) return loaded.gpuDevices > 0;
    return hasGpuModule(deps.workerPath ?? defaultWorkerPath);
  }

  /**
   * A new preference applies at once: the running worker finishes the jobs it has begun and quits, and a new one
   * loads the model on the chosen device in the background, so the next job does not wait for it.
   */
  function setDevicePreference(next: DevicePreference): void {
    if (next === preference) return;
    preference = next;
    const old = current;
    if (!old) return;
    retire(old);
    void engine(old.path).catch(() => undefined); // a model problem is reported by the next job
  }

  return {
    engine,
    use,
    activePath,
    canTranscribe,
    activeModelName,
    checkAtStart,
    useInstalled,
    close,
    overridden: () => Boolean(override),
    device,
    gpuAvailable,
    setDevicePreference,
    devicePreference: () => preference,
    /** The ffmpeg that decodes uploads; rejects with what to install when there is none to use. */
    ffmpeg: decoder.ffmpeg,
  };
}

export type ActiveEngine = ReturnType<typeof createActiveEngine>;
