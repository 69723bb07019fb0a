/** The transcript JSON: the stored record without what stays internal (its source, prompt, model path). */
import type { Transcript, TranscriptRecord, TranscriptSummary } from './schema.js';

export function presentSummary(record: TranscriptRecord & { seq?: number }): TranscriptSummary {
  const {
    seq: _feedPosition,
    segments: _s,
    words: _w,
    source: _src,
    requestedLanguage: _l,
    prompt: _p,
    modelPath: _m,
    options,
    vad,
    node: _n,
    leaseUntil: _lease,
    error,
    device,
    ...summary
  } = record;
  // older transcripts have no device, task or vad
  const shown = {
    ...summary,
    task: options?.task ?? ('transcribe' as const),
    vad: vad ?? null,
    device: device ?? null,
  };
  return error ? { ...shown, error } : shown;
}

export function presentTranscript(record: TranscriptRecord): Transcript {
  return { ...presentSummary(record), segments: record.segments ?? [], words: record.words ?? [] };
}
