/**
 * Whisper can emit timestamps past the end of the audio (the last window is padded to 30 s) and,
 * with weak models, out of order. Segments are clamped to [0, duration] and made non-decreasing.
 */
import type { Segment, Word } from './types.js';
import type { RawSegment } from './worker-process.js';

const round = (t: number) => Math.round(t * 1000) / 1000;
const clamp = (t: number, lo: number, hi: number) => round(Math.min(Math.max(t, lo), hi));

export function createSegmentNormalizer(duration: number) {
  let lastStart = 0;
  let lastEnd = 0;
  let nextId = 0;
  return function normalizeSegment(raw: RawSegment): Segment {
    const start = clamp(raw.start, lastStart, duration);
    const end = clamp(Math.max(raw.end, start, lastEnd), start, duration);
    lastStart = start;
    lastEnd = end;
    return { id: nextId++, start, end, text: raw.text.trim(), words: normalizeWords(raw.words, start, end) };
  };
}

function normalizeWords(words: RawSegment['words'], segStart: number, segEnd: number): Word[] {
  let last = segStart;
  return words.map((w) => {
    const start = clamp(w.start, last, segEnd);
    const end = clamp(w.end, start, segEnd);
    last = start;
    return { word: w.word, start, end, probability: w.probability };
  });
}
