/**
 * The engine for the active model: `--whisper-model` from start-up, else the model chosen in the model manager.
 * Built lazily (no model, no worker) and rebuilt when the active model changes. When there is no usable model,
 * `engine()` throws an error whose message says how to install one (docs/headless.md).
 */
import { basename, join } from 'node:path';
import { EngineError } from './errors.js';
import { ffmpegChooser } from './ffmpeg-binary.js';
import { modelsDir } from './model-files.js';
import { readModelHeader } from './model-header.js';
import type { WhisperEngine } from './types.js';
import { type AudioDecoder, createWhisperEngine } from './whisper-engine.js';

export interface ActiveEngineDeps {
  /** The model chosen in the model manager (domains/models' store): a file name in the models folder. */
  modelStore: { getActiveFile(): Promise<string | undefined> };
  dataDir: string;
  /** `--whisper-model`: wins until a model is chosen at run time (PUT /api/v1/models/active). */
  overridePath?: string;
  threads: number;
  /** The worker binary, where it is not in the checkout's build/whisper/ (a packaged app). */
  workerPath?: string;
  tmpDir: string;
  /** Which ffmpeg decodes uploads and the longest recording; the engine's default when not given (tests). */
  decoder?: AudioDecoder;
  log: (line: string) => void;
  /** For tests: a fake engine instead of the whisper.cpp worker. */
  createEngine?: (modelPath: string) => WhisperEngine;
}

export const NO_MODEL_MESSAGE =
  'No Whisper model is installed: install one with the model manager (POST /api/v1/models/<name>/download, e.g. tiny.en, then PUT /api/v1/models/active) or start Folio with --whisper-model <path to a ggml model file>';

export function createActiveEngine(deps: ActiveEngineDeps) {
  let override = deps.overridePath;
  let current: { path: string; engine: WhisperEngine } | undefined;
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
      }));

  /** The path of the model to use, or undefined when none is configured. */
  async function activePath(): Promise<string | undefined> {
    if (override) return override;
    const file = await deps.modelStore.getActiveFile();
    return file ? join(modelsDir(deps.dataDir), file) : undefined;
  }

  /** The engine for the active model (or `modelPath`, an installed one), loaded; throws with a message that names the model and the fix. */
  async function engine(modelPath?: string): Promise<WhisperEngine> {
    const path = modelPath ?? (await activePath());
    if (!path) throw new EngineError('model_missing', NO_MODEL_MESSAGE);
    if (current?.path !== path) {
      const old = current;
      current = { path, engine: build(path) };
      void old?.engine.close();
    }
    try {
      await current.engine.ready();
    } catch (error) {
      throw new EngineError((error as EngineError).code ?? 'failed', describeProblem(path, error));
    }
    return current.engine;
  }

  function describeProblem(path: string, error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const origin =
      path === override && deps.overridePath ? `given by --whisper-model (${path})` : `${basename(path)}`;
    return `The Whisper model ${origin} cannot be used: ${message}. Install a model with the model manager or pass a valid ggml model file to --whisper-model`;
  }

  /** Start-up check: reports an unusable --whisper-model on the console; never throws. */
  async function checkAtStart(): Promise<void> {
    const path = await activePath();
    if (!path) return;
    try {
      await readModelHeader(path);
    } catch (error) {
      deps.log(`Whisper model problem: ${describeProblem(path, error)}`);
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

  async function close(): Promise<void> {
    const engine = current?.engine;
    current = undefined;
    await engine?.close();
  }

  return {
    engine,
    activePath,
    activeModelName,
    checkAtStart,
    useInstalled,
    close,
    overridden: () => Boolean(override),
    /** The ffmpeg that decodes uploads; rejects with what to install when there is none to use. */
    ffmpeg: decoder.ffmpeg,
  };
}

export type ActiveEngine = ReturnType<typeof createActiveEngine>;
