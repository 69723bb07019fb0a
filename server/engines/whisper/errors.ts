/** Engine errors are HttpErrors with a code of their own, so every caller answers one with the same status. */
import { HttpError } from '../../http/errors.js';

export type EngineErrorCode =
  | 'not_built'
  | 'model_missing'
  | 'model_invalid'
  | 'worker_crashed'
  | 'bad_language'
  | 'bad_task'
  | 'decoder_missing'
  | 'stalled'
  | 'failed';

const statusByCode: Record<EngineErrorCode, number> = {
  not_built: 503,
  model_missing: 503,
  model_invalid: 503,
  worker_crashed: 500,
  bad_language: 400,
  bad_task: 400,
  decoder_missing: 503,
  stalled: 500,
  failed: 500,
};

export class EngineError extends HttpError {
  declare readonly code: EngineErrorCode;
  constructor(code: EngineErrorCode, message: string) {
    super(statusByCode[code], message, {}, {}, code);
    this.name = 'EngineError';
  }
}

export class AudioDecodeError extends HttpError {
  constructor(message: string) {
    super(422, message, {}, {}, 'bad_audio');
    this.name = 'AudioDecodeError';
  }
}

/** Same name and code as the DOM AbortError, so callers can test `err.name === 'AbortError'`. */
export class TranscriptionAbortedError extends Error {
  readonly code = 'ABORT_ERR';
  constructor(message = 'transcription cancelled') {
    super(message);
    this.name = 'AbortError';
  }
}
