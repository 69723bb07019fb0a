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
    node: _n,
    leaseUntil: _lease,
    error,
    device,
    ...summary
  } = record;
  const shown = { ...summary, device: device ?? null }; // older transcripts have no device
  return error ? { ...shown, error } : shown;
}

export function presentTranscript(record: TranscriptRecord): Transcript {
  return { ...presentSummary(record), segments: record.segments ?? [], words: record.words ?? [] };
}
