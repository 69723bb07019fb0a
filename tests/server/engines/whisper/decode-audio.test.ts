// Decoding an untrusted file is bounded: a file that decodes to more than the longest allowed recording, a decode
// that runs past its time limit or one that needs more memory than a decode may use costs one failed transcript
// with a clear error, and ffmpeg is killed or fails.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
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
} from '../../../../server/engines/whisper/decode-audio.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
if (!hasFfmpeg) console.warn('skipping decode limit tests: no ffmpeg on PATH (apt-get install ffmpeg)');

/** Threads of the process whose command line names `path` (0 when none runs). */
function threadsOfProcessNaming(path: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path))
        return readdirSync(`/proc/${pid}/task`).length;
    } catch {} // it ended meanwhile
  }
  return 0;
}

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

  it('stops a decode that writes no audio for its stall limit, long before its time limit', async () => {
    const started = Date.now();
    const decoding = decodeAudio(fifo, join(dir, 'stalled.f32'), {
      ffmpeg: 'ffmpeg',
      maxSeconds: 60,
      timeoutMs: 60_000,
      stallMs: 1_000,
    });
    await expect(decoding).rejects.toMatchObject({
      name: 'AudioDecodeError',
      message: 'could not decode audio: ffmpeg wrote no audio for 1 s, so it was stopped',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it.skipIf(process.platform !== 'linux')(
    'decodes on one thread: no decoder or filter thread beside it',
    async () => {
      const long = join(dir, 'twenty-minutes.flac');
      const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1200:sample_rate=44100'];
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', ...sine, '-ac', '2', '-c:a', 'flac', long]);
      let most = 0;
      const decoding = decodeAudio(long, join(dir, 'twenty-minutes.f32'), { ffmpeg: 'ffmpeg' });
      let settled = false;
      void decoding.finally(() => {
        settled = true;
      });
      while (!settled) {
        most = Math.max(most, threadsOfProcessNaming(long));
        await new Promise((r) => setTimeout(r, 10));
      }
      await decoding;
      expect(most).toBe(1); // seen running, and alone: ffmpeg 5.1 starts a filter thread per core unless told
    },
    60_000,
  );

  it('runs ffmpeg on recording formats and the file protocol only, with one thread and the output capped', async () => {
    const argsFile = join(dir, 'args.txt');
    const recorder = join(dir, 'recording-ffmpeg');
    writeFileSync(recorder, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexec ffmpeg "$@"\n`);
    chmodSync(recorder, 0o755);
    await decodeAudio(fiveSeconds, join(dir, 'recorded.f32'), { ffmpeg: recorder, maxSeconds: 60 });
    const args = readFileSync(argsFile, 'utf8').trim().split('\n');
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('-threads')).toBe('1');
    expect(after('-filter_threads')).toBe('1');
    expect(after('-protocol_whitelist')).toBe('file');
    expect(args.indexOf('-protocol_whitelist')).toBeLessThan(args.indexOf('-i'));
    expect(after('-format_whitelist')).toBe(RECORDING_DEMUXERS);
    expect(args.indexOf('-format_whitelist')).toBeLessThan(args.indexOf('-i'));
    expect(Number(after('-t'))).toBeLessThanOrEqual(61);
    expect(args.at(-1)).toBe('pipe:1');
  });

  describe.skipIf(process.platform !== 'linux')('memory', () => {
    const outOfMemory = (mb: number) => ({
      name: 'AudioDecodeError',
      status: 422,
      message: `could not decode audio: decoding needed more memory than a decode may use (${mb} MiB)`,
    });

    it('fails a decode that needs more memory than a decode may use, with that message', async () => {
      const decoding = decodeAudio(fiveSeconds, join(dir, 'small.f32'), {
        ffmpeg: 'ffmpeg',
        maxSeconds: 60,
        maxMemoryMb: 64,
      });
      await expect(decoding).rejects.toMatchObject(outOfMemory(64));
    });

    it('decodes a 10-minute recording within the default memory limit', async () => {
      const tenMinutes = join(dir, 'ten-minutes.mp3');
      const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=600:sample_rate=16000'];
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', ...sine, '-b:a', '32k', tenMinutes]);
      const { duration } = await decodeAudio(tenMinutes, join(dir, 'ten-minutes.f32'), { ffmpeg: 'ffmpeg' });
      expect(duration).toBeCloseTo(600, 0);
    }, 30_000);

    it('runs ffmpeg under an address-space limit, 2 GiB unless configured', async () => {
      const limitFile = join(dir, 'ulimit.txt');
      const recorder = join(dir, 'ulimit-ffmpeg');
      writeFileSync(recorder, `#!/bin/sh\nulimit -v > '${limitFile}'\nexec ffmpeg "$@"\n`);
      chmodSync(recorder, 0o755);
      await decodeAudio(fiveSeconds, join(dir, 'limited.f32'), { ffmpeg: recorder, maxSeconds: 60 });
      expect(readFileSync(limitFile, 'utf8').trim()).toBe(String(2048 * 1024));
      const options = { ffmpeg: recorder, maxSeconds: 60, maxMemoryMb: 512 };
      await decodeAudio(fiveSeconds, join(dir, 'limited.f32'), options);
      expect(readFileSync(limitFile, 'utf8').trim()).toBe(String(512 * 1024));
    });

    it('reads an allocation failure as running out of memory, and tells a crash and a kill from outside apart', async () => {
      const script = (name: string, body: string) => {
        const path = join(dir, name);
        writeFileSync(path, `#!/bin/sh\n${body}\n`);
        chmodSync(path, 0o755);
        return path;
      };
      const failing = script(
        'enomem-ffmpeg',
        "echo 'Error while filtering: Cannot allocate memory' >&2\nexit 1",
      );
      const decode = (ffmpeg: string) =>
        decodeAudio(fiveSeconds, join(dir, 'failed.f32'), { ffmpeg, maxMemoryMb: 1024 });
      await expect(decode(failing)).rejects.toMatchObject(outOfMemory(1024));
      await expect(decode(script('crashing-ffmpeg', 'kill -SEGV $$'))).rejects.toMatchObject({
        message:
          'could not decode audio: ffmpeg crashed (SIGSEGV): the file is damaged, or decoding needed more than the 1024 MiB a decode may use',
      });
      await expect(decode(script('killed-ffmpeg', 'kill -KILL $$'))).rejects.toMatchObject({
        message:
          'could not decode audio: ffmpeg was stopped from outside Folio (SIGKILL), for example by the system when memory ran short',
      });
    });

    it('says when the ffmpeg cannot be run', async () => {
      const decoding = decodeAudio(fiveSeconds, join(dir, 'none.f32'), { ffmpeg: join(dir, 'no-ffmpeg') });
      await expect(decoding).rejects.toThrow(/^could not decode audio: cannot run ffmpeg \(.*no-ffmpeg.*\)$/);
    });
  });
});
