import { describe, expect, it } from 'vitest';
import { exportTranscript, timestamp, toSrt, toVtt } from '../../../../server/domains/transcripts/exports.js';
import type { Transcript } from '../../../../server/domains/transcripts/schema.js';

const segments = [
  { id: 0, start: 0, end: 1.5, text: ' Hello there.' },
  { id: 1, start: 1.5, end: 2, text: '   ' },
  { id: 2, start: 3725.0004, end: 3727.9996, text: 'a --> b' },
];

describe('transcript exports', () => {
  it('formats timestamps for SubRip and WebVTT, past an hour, never negative', () => {
    expect(timestamp(0, ',')).toBe('00:00:00,000');
    expect(timestamp(3725.0004, '.')).toBe('01:02:05.000');
    expect(timestamp(59.9996, ',')).toBe('00:01:00,000');
    expect(timestamp(-1, '.')).toBe('00:00:00.000');
  });

  it('writes numbered SubRip cues, skipping empty ones and defusing "-->" in text', () => {
    expect(toSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\nHello there.\n\n2\n01:02:05,000 --> 01:02:08,000\na -> b\n',
    );
  });

  it('writes WebVTT with its header', () => {
    expect(toVtt(segments)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n01:02:05.000 --> 01:02:08.000\na -> b\n',
    );
    expect(toVtt([])).toBe('WEBVTT\n');
  });

  it('exports text and JSON of the whole transcript', () => {
    const t = { id: 'trn_1', text: 'Hello there.', segments, words: [] } as unknown as Transcript;
    expect(exportTranscript(t, 'txt')).toBe('Hello there.\n');
    expect(JSON.parse(exportTranscript(t, 'json'))).toEqual(t);
  });

  it("names each segment's speaker: a SubRip prefix, a WebVTT voice, a paragraph per turn in text", () => {
    const spoken = [
      { id: 0, start: 0, end: 2, text: ' Shall we start?', speaker: 'Speaker 1' },
      { id: 1, start: 2, end: 4, text: ' Yes.', speaker: 'Speaker 2' },
      { id: 2, start: 4, end: 6, text: ' Good.', speaker: 'Speaker 2' },
    ];
    const t = {
      id: 'trn_2',
      text: 'Shall we start? Yes. Good.',
      segments: spoken,
      words: [],
    } as unknown as Transcript;
    expect(exportTranscript(t, 'srt')).toContain(
      '00:00:00,000 --> 00:00:02,000\nSpeaker 1: Shall we start?\n',
    );
    expect(exportTranscript(t, 'vtt')).toContain('00:00:02.000 --> 00:00:04.000\n<v Speaker 2>Yes.\n');
    expect(exportTranscript(t, 'txt')).toBe('Speaker 1: Shall we start?\n\nSpeaker 2: Yes. Good.\n');
    expect(JSON.parse(exportTranscript(t, 'json')).segments[1].speaker).toBe('Speaker 2');
    expect(toSrt(spoken)).not.toContain('Speaker'); // OpenAI's srt and vtt stay as OpenAI writes them
  });
});
