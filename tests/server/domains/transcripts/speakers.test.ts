// Speakers by channel end to end: a generated two-voice stereo interview through the queue and the real engine on
// the random-weight model. Its text means nothing, so what is checked is each segment's speaker against the known
// turns its span falls in, and that REST, the exports and MCP show the same speakers.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_SPEAKERS } from '../../../../server/engines/whisper/speakers-by-channel.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  engineBuilt,
  expectWellFormedTranscript,
  type Fixtures,
  type Json,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';
import { type Turn, twoVoiceInterview } from '../../../helpers/two-voices.js';
import { callOk, connect } from '../../surfaces/mcp/harness.js';

/** The turn a segment's span lies in (its middle tenth of a second for a zero-length one), if only one. */
function turnHolding(turns: Turn[], { start, end }: Json): Turn | undefined {
  const middle = (start + end) / 2;
  const [from, to] = [Math.min(start, middle - 0.05), Math.max(end, middle + 0.05)];
  return turns.find((t) => from >= t.start && to <= t.end);
}

describe.skipIf(!engineBuilt)('speakers by channel (micro random model)', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;
  let turns: Turn[];
  let transcript: Json;

  beforeAll(async () => {
    fx = makeFixtures();
    // turns as long as Whisper's 30-second window, so that each window's first segments (the ones a random model
    // places with any care) fall inside a turn of each voice
    const interview = twoVoiceInterview(fx.dir, [
      'Thanks for coming in today. I would like to hear how the project began, who took part in it, and what you ' +
        'hoped it would do for the people who record interviews, meetings and calls every day. Before we start, ' +
        'could you say a little about yourself and the team, and how you came to work on transcription in the ' +
        'first place, since it is not where most of you began your careers?',
      'Glad to be here. It began last spring, when three of us met to plan the first version of the tool. We had ' +
        'all spent years typing up recordings by hand, and we wanted something that worked offline, on an ordinary ' +
        'laptop, without sending a single voice to a server. The first version took four months, and most of that ' +
        'time went into testing it on real recordings from our friends.',
    ]);
    turns = interview.turns;
    srv = await startTestServer({ whisperModel: fx.model });
    key = await srv.createKey({ services: ['transcription'] });
    const queued = await queueTranscript(srv, key, readFileSync(interview.stereo));
    transcript = await waitForStatus(srv, key, queued.id, ['completed', 'failed'], 180_000);
  }, 240_000);
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  it("gives each segment spoken within one turn that turn's voice, by channel", () => {
    expectWellFormedTranscript(transcript);
    const within = transcript.segments
      .map((s: Json) => ({ s, turn: turnHolding(turns, s) }))
      .filter((x: Json) => x.turn);
    expect(within.length).toBeGreaterThan(0);
    for (const { s, turn } of within) expect(s.speaker).toBe(CHANNEL_SPEAKERS[turn.channel]);
    const voices = new Set(transcript.segments.map((s: Json) => s.speaker).filter(Boolean));
    expect([...voices].sort()).toEqual([...CHANNEL_SPEAKERS]);
  });

  it('shows the speakers in the SubRip, WebVTT, text and JSON exports and over MCP', async () => {
    const api = srv.as({ bearer: key });
    const exported = async (format: string) =>
      (await api(`/api/v1/transcripts/${transcript.id}/export?format=${format}`)).text();
    const named = transcript.segments.find((s: Json) => s.speaker && s.text.trim());
    expect(named).toBeTruthy();
    expect(await exported('srt')).toContain(`${named.speaker}: ${named.text.trim()}`);
    expect(await exported('vtt')).toContain(`<v ${named.speaker}>${named.text.trim()}`);
    expect(await exported('txt')).toMatch(new RegExp(`^${named.speaker}: |\\n\\n${named.speaker}: `));
    expect(JSON.parse(await exported('json')).segments).toEqual(transcript.segments);

    const client = await connect(srv, key);
    try {
      const got = await callOk(client, 'transcripts_get', { id: transcript.id });
      expect(got.segments).toEqual(transcript.segments);
    } finally {
      await client.close();
    }
  });
});
