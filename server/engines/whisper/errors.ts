/** Engine errors carry `status` and `expose` so an HTTP error boundary can pass them through as-is. */
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

export class EngineError extends Error {
  readonly status: number;
  readonly expose = true;
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
    this.status = statusByCode[code];
  }
}

export class AudioDecodeError extends Error {
  readonly status = 422;
  readonly expose = true;
  readonly code = 'bad_audio';
  constructor(message: string) {
    super(message);
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
