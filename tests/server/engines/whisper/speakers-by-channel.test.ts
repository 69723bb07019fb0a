// Speakers by channel on real ffmpeg and a generated two-voice interview: each channel's energy over a span names the
// voice that spoke it; mono, dual mono and a one-voice stereo file get no speakers at all.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChannelEnergy } from '../../../../server/engines/whisper/channel-energy.js';
import {
  CHANNEL_SPEAKERS,
  labelSpeakersByChannel,
} from '../../../../server/engines/whisper/speakers-by-channel.js';
import type { Segment } from '../../../../server/engines/whisper/types.js';
import { type TwoVoices, twoVoiceInterview } from '../../../helpers/two-voices.js';

const decoding = { ffmpeg: 'ffmpeg' };
const segment = (id: number, start: number, end: number): Segment => ({
  id,
  start,
  end,
  text: 'x',
  words: [],
});

describe('speakers by channel', () => {
  let dir: string;
  let interview: TwoVoices;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-speakers-'));
    interview = twoVoiceInterview(dir, [
      'Thanks for coming in today.',
      'Glad to be here, thank you.',
      'Tell me about the project.',
      'We started it last spring.',
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names each turn's voice by its channel, at any span within the turn, and no one in the silence between", async () => {
    const energy = await readChannelEnergy(interview.stereo, decoding);
    const { turns } = interview;
    const spans = turns.flatMap((t, i) => [
      segment(i * 4, t.start, t.end),
      segment(i * 4 + 1, t.start + 0.2, (t.start + t.end) / 2),
      segment(i * 4 + 2, (t.start + t.end) / 2, (t.start + t.end) / 2), // Whisper's zero-length segments
      segment(i * 4 + 3, t.end + 0.3, t.end + 0.7), // the gap after the turn
    ]);
    const labelled = labelSpeakersByChannel(spans, energy);
    turns.forEach((turn, i) => {
      const voice = CHANNEL_SPEAKERS[turn.channel];
      expect(labelled.slice(i * 4, i * 4 + 3).map((s) => s.speaker)).toEqual([voice, voice, voice]);
      expect(labelled[i * 4 + 3].speaker).toBeUndefined();
    });
  });

  it('leaves mono, dual mono and a one-voice stereo recording without speakers', async () => {
    const { turns } = interview;
    const spans = turns.map((t, i) => segment(i, t.start, t.end));
    const oneVoice = join(dir, 'one-voice.wav');
    execFileSync('sox', [interview.stereo, oneVoice, 'remix', '1', '0']); // the left voice, the right silent
    for (const file of [interview.mono, interview.dualMono, oneVoice]) {
      const energy = await readChannelEnergy(file, decoding);
      expect(labelSpeakersByChannel(spans, energy)).toEqual(spans);
    }
  });
});
