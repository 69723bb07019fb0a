// Hostile media sent to be transcribed, all at once (issue #38): each costs one transcript, settled with a reason in
// the caller's terms (no server path, no memory address), and the server keeps serving. The files are made at test
// time (tests/helpers/hostile-media.ts); the real worker runs what decodes.
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  concatScript,
  fuzzed,
  hlsPlaylist,
  manyTrackMatroska,
  reencoded,
  silenceBomb,
  trickTags,
  videoOnly,
  wavClaiming,
} from '../../../helpers/hostile-media.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
} from '../../../helpers/transcription.js';

type Case = { name: string; bytes: Buffer; file: string; outcome: string | RegExp };

const refusedAs = (format: string) =>
  `could not decode audio: the file is not an audio or video recording ffmpeg may read (it reads as ${format})`;

describe.skipIf(!engineBuilt)('hostile media, transcribed twenty-odd at once', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;
  let cases: Case[];

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer({ whisperModel: fx.model, whisperThreads: 1, limits: { audioSeconds: 600 } });
    key = await srv.createKey({ services: ['transcription'] });
    const elsewhere = fx.speech; // a file on the machine that is not the upload
    cases = [
      {
        name: 'a Matroska file declaring 2,000 tracks',
        bytes: manyTrackMatroska(2_000),
        file: 'tracks.mkv',
        outcome:
          'could not decode audio: the file declares more than 1000 streams, more than a recording may have',
      },
      {
        name: 'a video with no audio',
        bytes: videoOnly(fx.dir),
        file: 'video.mp4',
        outcome: 'could not decode audio: the file has no audio',
      },
      {
        name: 'an HLS playlist naming another file',
        bytes: hlsPlaylist(elsewhere),
        file: 'list.m3u8',
        outcome: refusedAs('hls'),
      },
      {
        name: 'an ffconcat script naming another file',
        bytes: concatScript(elsewhere),
        file: 'list.txt',
        outcome: refusedAs('concat'),
      },
      {
        name: 'tags that read as URLs, protocols and paths',
        bytes: trickTags(fx.dir, elsewhere),
        file: 'tricks.mka',
        outcome: 'completed',
      },
      {
        name: 'a WAV header claiming 30 days',
        bytes: wavClaiming(30),
        file: 'month.wav',
        outcome: 'completed',
      },
      {
        name: 'an hour of silence in a few kilobytes',
        bytes: silenceBomb(fx.dir, 1),
        file: 'bomb.flac',
        outcome: 'could not decode audio: it is longer than the 600 seconds a recording may last',
      },
      ...[
        ['m4a', ['-c:a', 'aac']],
        ['ogg', ['-c:a', 'libopus']],
        ['mp3', ['-c:a', 'libmp3lame']],
      ].flatMap(([ext, codec], n) =>
        fuzzed(reencoded(fx.dir, fx.speech, `speech.${ext}`, codec as string[]), 5, 38 + n, 1024).map(
          (bytes, i) => ({
            name: `fuzzed ${ext} ${i}`,
            bytes,
            file: `fuzzed-${i}.${ext}`,
            outcome: /^(completed|could not decode audio: .+)$/,
          }),
        ),
      ),
    ];
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  it('each settles with its own reason, in the caller’s terms, and the server keeps serving', async () => {
    const answers = await Promise.all(
      cases.map(async (c) => {
        const res = await srv.as({ bearer: key })('/api/v1/transcribe', {
          method: 'POST',
          body: audioForm(c.bytes, c.file),
        });
        return { c, status: res.status, body: (await res.json()) as Json };
      }),
    );
    for (const { c, status, body } of answers) {
      const said = status === 200 ? body.status : body.error;
      expect(said, c.name).toMatch(
        c.outcome instanceof RegExp ? c.outcome : new RegExp(`^${escapeRegExp(c.outcome)}$`),
      );
      if (status !== 200) {
        expect(status, c.name).toBe(422);
        // nothing of the server's own: its data folder, its scratch files, a path, an address
        for (const secret of [srv.dataDir, tmpdir(), 'file:', ' @ 0x'])
          expect(said.includes(secret), `${c.name}: ${said}`).toBe(false);
        expect(said, c.name).not.toMatch(/(?:\/[\w.-]+){2,}/);
      }
    }
    const month = answers.find((a) => a.c.file === 'month.wav');
    expect(month?.body.duration).toBeCloseTo(1, 0); // what the file holds, not what its header claims
    expect((await srv.as(null)('/health')).status).toBe(200);
  }, 240_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
