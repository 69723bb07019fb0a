import { describe, expect, it } from 'vitest';
import { finishedTranscriptions } from '../../electron/notify.js';

const before = new Map([
  ['long', 'processing'],
  ['short', 'processing'],
  ['old', 'completed'],
  ['broken', 'pending'],
]);
const now = [
  { id: 'long', status: 'completed', duration: 600 },
  { id: 'short', status: 'completed', duration: 30 },
  { id: 'old', status: 'completed', duration: 900 },
  { id: 'broken', status: 'failed', duration: 300, error: 'no model installed' },
  { id: 'new', status: 'completed', duration: 900 },
];
const options = { enabled: true, minSeconds: 120, windowFocused: false };

describe('notifications for long transcriptions', () => {
  it('announces long ones that finished since the last look, once, with failures saying why', () => {
    expect(finishedTranscriptions(before, now, options)).toEqual([
      { id: 'long', title: 'Transcript ready', body: 'A 10-minute recording has been transcribed.' },
      { id: 'broken', title: 'Transcription failed', body: 'no model installed' },
    ]);
    const seen = new Map(now.map((t) => [t.id, t.status]));
    expect(finishedTranscriptions(seen, now, options)).toEqual([]);
  });

  it('stays quiet while the window is in front, when turned off, and for short recordings', () => {
    expect(finishedTranscriptions(before, now, { ...options, windowFocused: true })).toEqual([]);
    expect(finishedTranscriptions(before, now, { ...options, enabled: false })).toEqual([]);
    expect(finishedTranscriptions(before, now, { ...options, minSeconds: 3600 })).toEqual([]);
  });
});
