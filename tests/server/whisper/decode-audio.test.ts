// Decoding an untrusted file is bounded: a file that decodes to more than the longest allowed recording, or a
// decode that runs past its time limit, costs one failed transcript with a clear error, and ffmpeg is killed.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeAudio,
  RECORDING_DEMUXERS,
  SAMPLE_RATE,
} from '../../../server/capabilities/whisper/decode-audio.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
if (!hasFfmpeg) console.warn('skipping decode limit tests: no ffmpeg on PATH (apt-get install ffmpeg)');

describe.skipIf(!hasFfmpeg)('decodeAudio limits', () => {
  let dir: string;
  let fiveSeconds: string;
  let fifo: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-decode-'));
    fiveSeconds = join(dir, 'tone.wav');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=5',
      '-ar',
      '8000',
      fiveSeconds,
    ]);
    fifo = join(dir, 'endless.wav');
    execFileSync('mkfifo', [fifo]);
  });
  afterAll(() => {
    // An ffmpeg still waiting on the FIFO (a decoder that was never stopped) gets its end of file and exits
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  it('decodes a file within the limits to 16 kHz mono float PCM', async () => {
    const out = join(dir, 'ok.f32');
    const { duration } = await decodeAudio(fiveSeconds, out, { ffmpeg: 'ffmpeg', maxSeconds: 60 });
    expect(duration).toBeCloseTo(5, 1);
    expect(statSync(out).size).toBe(duration * SAMPLE_RATE * 4);
  });

  it('fails a file that decodes to more than the longest allowed recording, writing no more than that', async () => {
    const out = join(dir, 'long.f32');
    const decoding = decodeAudio(fiveSeconds, out, { ffmpeg: 'ffmpeg', maxSeconds: 2 });
    await expect(decoding).rejects.toMatchObject({
      name: 'AudioDecodeError',
      status: 422,
      message: 'could not decode audio: it is longer than the 2 seconds a recording may last',
    });
    expect(statSync(out, { throwIfNoEntry: false })?.size ?? 0).toBeLessThanOrEqual(2 * SAMPLE_RATE * 4);
  });

  it('kills a decode that runs past its time limit', async () => {
    const started = Date.now();
    const decoding = decodeAudio(fifo, join(dir, 'endless.f32'), {
      ffmpeg: 'ffmpeg',
      maxSeconds: 60,
      timeoutMs: 1_000,
    });
    await expect(decoding).rejects.toMatchObject({
      name: 'AudioDecodeError',
      message: 'could not decode audio: ffmpeg did not finish within 1 s, so it was stopped',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it('runs ffmpeg on recording formats and the file protocol only, with one thread and the output capped', async () => {
    const argsFile = join(dir, 'args.txt');
    const recorder = join(dir, 'recording-ffmpeg');
    writeFileSync(recorder, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexec ffmpeg "$@"\n`);
    chmodSync(recorder, 0o755);
    await decodeAudio(fiveSeconds, join(dir, 'recorded.f32'), { ffmpeg: recorder, maxSeconds: 60 });
    const args = readFileSync(argsFile, 'utf8').trim().split('\n');
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('-threads')).toBe('1');
    expect(after('-protocol_whitelist')).toBe('file');
    expect(args.indexOf('-protocol_whitelist')).toBeLessThan(args.indexOf('-i'));
    expect(after('-format_whitelist')).toBe(RECORDING_DEMUXERS);
    expect(args.indexOf('-format_whitelist')).toBeLessThan(args.indexOf('-i'));
    expect(Number(after('-t'))).toBeLessThanOrEqual(61);
    expect(args.at(-1)).toBe('pipe:1');
  });
});
