/** The newline-delimited JSON spoken with resources/whisper-worker/worker.cpp (described at its top). */
import { EngineError, TranscriptionAbortedError } from './errors.js';

/** A segment as the worker sends it: seconds, not yet clamped to the audio. */
export interface RawSegment {
  index: number;
  start: number;
  end: number;
  text: string;
  words: Array<{ word: string; start: number; end: number; probability: number }>;
}

export interface WorkerEvent {
  event: 'loaded' | 'progress' | 'segment' | 'done' | 'error';
  id?: string;
  pid?: number;
  dtw?: boolean;
  percent?: number;
  language?: string;
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
  return new EngineError('failed', `transcription failed: ${message}`);
}
