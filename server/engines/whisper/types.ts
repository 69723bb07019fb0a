import type { LoadedDevice } from './device.js';

/** Times are in seconds from the start of the audio. */
export interface Word {
  word: string;
  start: number;
  end: number;
  probability: number;
}

export interface Segment {
  id: number;
  start: number;
  end: number;
  text: string;
  words: Word[];
  /** Who spoke it, where a recording's channels tell (speakers-by-channel.ts); absent otherwise. */
  speaker?: string;
}

export interface EngineResult {
  language: string;
  duration: number;
  text: string;
  segments: Segment[];
}

export interface TranscribeOptions {
  /** ISO code such as "en"; omitted means auto-detect (English-only models always use "en"). */
  language?: string;
  prompt?: string;
  threads?: number;
  /** Integer 0..100, never decreasing; the last call is 100 when the job succeeds. */
  onProgress?(percent: number): void;
  onSegment?(segment: Segment): void;
  signal?: AbortSignal;
}

export interface WhisperEngine {
  readonly modelPath: string;
  /** Resolves once the model is loaded in the worker; rejects with an EngineError naming the problem. */
  ready(): Promise<void>;
  transcribeFile(path: string, options?: TranscribeOptions): Promise<EngineResult>;
  /** 16 kHz mono float32 samples, e.g. a realtime buffer. */
  transcribePcm(pcm: Float32Array, options?: TranscribeOptions): Promise<EngineResult>;
  /** The worker's pid, how many times it has loaded the model, and whether words use DTW timing. */
  status(): { pid: number | undefined; loads: number; dtw: boolean };
  /** The device the worker runs on; undefined until it has loaded the model once. */
  device(): LoadedDevice | undefined;
  close(): Promise<void>;
}
