import type { LoadedDevice } from './device.js';
import type { VadSummary } from './worker-protocol.js';

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

/** Voice activity detection (whisper.cpp's, on Silero VAD v5); a field left out takes whisper-cli's default. */
export interface VadOptions {
  /** Speech probability above which a 32 ms frame is speech (default 0.5). */
  threshold?: number;
  /** Shorter speech is dropped (default 250). */
  minSpeechMs?: number;
  /** Silence that ends a stretch of speech (default 100). */
  minSilenceMs?: number;
  /** Longer speech is split (default: no limit). */
  maxSpeechS?: number;
  /** Kept on each side of speech (default 30). */
  speechPadMs?: number;
}

/** Whisper's guards against invented text; whisper-cli's defaults when left out. */
export interface GuardOptions {
  /** A window more likely silent than this, with low log-probability, gives no text (default 0.6). */
  noSpeech?: number;
  /** A decode whose text repeats this much (entropy below it) is tried again hotter (default 2.4). */
  entropy?: number;
  /** A decode with a mean token log-probability below this is tried again hotter (default -1). */
  logprob?: number;
  /** How much hotter each try is, up to 1.0; 0 turns the fallback off (default 0.2). */
  temperatureInc?: number;
}

/** What voice activity detection found: the speech, in the recording's seconds, and the silence left out. */
export type { VadSummary } from './worker-protocol.js';

export interface EngineResult {
  language: string;
  duration: number;
  text: string;
  segments: Segment[];
  /** Present when voice activity detection ran. */
  vad?: VadSummary;
}

export interface TranscribeOptions {
  /** ISO code such as "en"; omitted means auto-detect (English-only models always use "en"). */
  language?: string;
  prompt?: string;
  threads?: number;
  /** translate: English text from speech in any language (multilingual models only). Default transcribe. */
  task?: 'transcribe' | 'translate';
  /** Only the speech it finds is transcribed; off when not given. */
  vad?: VadOptions;
  guards?: GuardOptions;
  /**
   * Decode without timestamp tokens: every pass covers a whole 30 s window, and a segment is a window. For
   * measurements with random-weight models, whose random timestamps would advance a few seconds per pass.
   */
  noTimestamps?: boolean;
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
