/** The newline-delimited JSON spoken with resources/whisper-worker/worker.cpp (described at its top). */
import { EngineError, TranscriptionAbortedError } from './errors.js';

/** What voice activity detection found: the speech kept, in the recording's timeline, and the silence skipped. */
export interface VadSummary {
  speechSeconds: number;
  skippedSeconds: number;
  speech: Array<{ start: number; end: number }>;
}

/** A segment as the worker sends it: seconds, not yet clamped to the audio. */
export interface RawSegment {
  index: number;
  start: number;
  end: number;
  text: string;
  words: Array<{ word: string; start: number; end: number; probability: number }>;
}

/** The device the worker's `loaded` event names: what runs the model, as the worker found it. */
export interface WorkerDevice {
  kind: 'cpu' | 'gpu';
  /** CPU, CUDA, Vulkan, Metal */
  backend: string;
  /** The GPU's name, or the CPU's model name */
  name: string;
  threads: number;
  /** The CPU module's widest instruction set (AVX2, AVX512, NEON); empty on a GPU */
  simd: string;
  features: string[];
}

export interface SkippedModule {
  module: string;
  reason: string;
}

export interface WorkerEvent {
  event: 'loaded' | 'progress' | 'segment' | 'done' | 'error' | 'alive' | 'fatal';
  id?: string;
  pid?: number;
  dtw?: boolean;
  device?: WorkerDevice;
  /** Why the GPU is not used although it was asked for (or built), else null */
  fallback?: string | null;
  /** GPU devices the loaded backend modules found */
  gpuDevices?: number;
  /** GPU modules beside the worker that did not load, and the loader's reason (a library of theirs missing) */
  skipped?: SkippedModule[];
  percent?: number;
  language?: string;
  /** done: what voice activity detection found, when it ran; loaded: whether the VAD file is beside the worker */
  vad?: VadSummary | boolean;
  code?: string;
  message?: string;
}

export function parseEvent(line: string): WorkerEvent | undefined {
  try {
    return JSON.parse(line) as WorkerEvent;
  } catch {
    return undefined; // whisper.cpp never writes to stdout, but a stray line must not break the protocol
  }
}

export function jobError(event: WorkerEvent): Error {
  const message = event.message ?? 'whisper worker failed';
  if (event.code === 'aborted') return new TranscriptionAbortedError();
  if (event.code === 'bad_language') return new EngineError('bad_language', message);
  if (event.code === 'bad_task') return new EngineError('bad_task', message);
  if (event.code === 'vad_missing') return new EngineError('not_built', message);
  return new EngineError('failed', `transcription failed: ${message}`);
}
