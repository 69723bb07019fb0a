// A transcript with speakers answers OpenAI's formats in OpenAI's shape: verbose_json's segments keep exactly
// OpenAI's fields, and srt, vtt and text carry no speaker names a client of OpenAI's API would not expect.
import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../../server/domains/transcripts/schema.js';
import { formatOpenAi } from '../../../../server/surfaces/openai/format.js';

const transcript = {
  text: 'Shall we start? Yes.',
  language: 'en',
  duration: 4,
  segments: [
    { id: 0, start: 0, end: 2, text: 'Shall we start?', speaker: 'Speaker 1' },
    { id: 1, start: 2, end: 4, text: 'Yes.', speaker: 'Speaker 2' },
  ],
  words: [],
} as unknown as Transcript;

const answer = (responseFormat: 'verbose_json' | 'srt' | 'vtt' | 'text') =>
  formatOpenAi(transcript, { responseFormat, granularities: [], options: {} }).body;

describe('OpenAI formats of a transcript with speakers', () => {
  it("keeps verbose_json's segment fields exactly OpenAI's", () => {
    const body = JSON.parse(answer('verbose_json'));
    for (const segment of body.segments)
      expect(Object.keys(segment).sort()).toEqual([
        'avg_logprob',
        'compression_ratio',
        'end',
        'id',
        'no_speech_prob',
        'seek',
        'start',
        'temperature',
        'text',
        'tokens',
      ]);
  });

  it('writes srt, vtt and text without speaker names', () => {
    for (const format of ['srt', 'vtt', 'text'] as const) expect(answer(format)).not.toContain('Speaker');
  });
});
