// An upload is read as a recording or not at all: a playlist or concat script that names other files on the machine
// (another user's recording in the data folder) is refused, so its transcript cannot leak them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../../server/engines/whisper/decode-audio.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
if (!hasFfmpeg) console.warn('skipping decode format tests: no ffmpeg on PATH (apt-get install ffmpeg)');

const refused = (format: string) => ({
  name: 'AudioDecodeError',
  status: 422,
  message: `could not decode audio: the file is not an audio or video recording ffmpeg may read (it reads as ${format})`,
});

describe.skipIf(!hasFfmpeg)('decodeAudio formats', () => {
  let dir: string;
  const recording = (name: string) => join(dir, name);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-formats-'));
    for (const name of ['tone.wav', 'tone.mp3', 'tone.ogg', 'tone.m4a', 'tone.webm']) {
      const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'];
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', ...sine, recording(name)]);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['tone.wav', 'tone.mp3', 'tone.ogg', 'tone.m4a', 'tone.webm'])(
    'decodes a recording: %s',
    async (name) => {
      const { duration } = await decodeAudio(recording(name), join(dir, `${name}.f32`), { ffmpeg: 'ffmpeg' });
      expect(duration).toBeGreaterThan(1.9);
      expect(duration).toBeLessThan(2.2);
    },
  );

  // Debian's ffmpeg 5.1 loads an HLS segment only when its name has its format's extension (so not a .wav), which
  // an m4a has: that is the file the playlist names
  it('refuses an HLS playlist that names another file by its absolute path', async () => {
    const upload = recording('upload-hls');
    const playlist = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:10',
      '#EXTINF:2,',
      recording('tone.m4a'),
      '#EXT-X-ENDLIST',
    ];
    writeFileSync(upload, `${playlist.join('\n')}\n`);
    const out = join(dir, 'hls.f32');
    await expect(decodeAudio(upload, out, { ffmpeg: 'ffmpeg' })).rejects.toMatchObject(refused('hls'));
    expect(statSync(out, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  });

  // concat's own safe mode refuses an absolute path, not a plain name beside the upload, as uploads lie side by side
  it.each([
    ['by a name beside it', 'tone.wav'],
    ['by its absolute path', undefined],
  ])('refuses an ffconcat script that names another file %s', async (_, name) => {
    const upload = recording('upload-concat');
    writeFileSync(upload, `ffconcat version 1.0\nfile '${name ?? recording('tone.wav')}'\n`);
    const out = join(dir, 'concat.f32');
    await expect(decodeAudio(upload, out, { ffmpeg: 'ffmpeg' })).rejects.toMatchObject(refused('concat'));
    expect(statSync(out, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  });
});
