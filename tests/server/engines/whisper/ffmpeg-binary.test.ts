// Which ffmpeg decodes uploads: the one FOLIO_FFMPEG names, else the one on PATH when it is 5.0 or newer; never a
// binary older than that picked silently, and a missing one named with how to install it.
import { describe, expect, it } from 'vitest';
import { configFromProcess } from '../../../../server/config.js';
import {
  chooseFfmpeg,
  describeFfmpeg,
  ffmpegVersion,
} from '../../../../server/engines/whisper/ffmpeg-binary.js';

const banner = (version: string) =>
  `ffmpeg version ${version} Copyright (c) 2000-2024 the FFmpeg developers\nbuilt with gcc 12 (Debian 12.2.0-14)\n`;

/** A probe that answers for the given paths as `ffmpeg -version` would, and fails to run anything else. */
const probeOf =
  (answers: Record<string, string>) =>
  async (path: string): Promise<string> => {
    if (path in answers) return answers[path];
    throw Object.assign(new Error(`spawn ${path} ENOENT`), { code: 'ENOENT' });
  };

describe('ffmpegVersion', () => {
  it.each([
    ['5.1.9-0+deb12u1', 5],
    ['6.1.1-3ubuntu5', 6],
    ['n7.1', 7],
    ['7.0.2-static https://johnvansickle.com/ffmpeg/', 7],
    ['4.1', 4],
    ['4.4.2-0ubuntu0.22.04.1', 4],
  ])('reads the major version of %s', (version, major) => {
    expect(ffmpegVersion(banner(version))).toMatchObject({ major, recent: major >= 5 });
  });

  it('takes a dated git build from 2022 on as recent, and an undated one as unknown', () => {
    expect(ffmpegVersion(banner('2024-03-07-git-97beb63a66-full_build-www.gyan.dev'))?.recent).toBe(true);
    expect(ffmpegVersion(banner('2021-05-01-git-1234567890-essentials'))?.recent).toBe(false);
    expect(ffmpegVersion(banner('N-113445-g1234567890'))).toMatchObject({ version: 'N-113445-g1234567890' });
    expect(ffmpegVersion(banner('N-113445-g1234567890'))?.recent).toBe(false);
    expect(ffmpegVersion('not ffmpeg at all')).toBeUndefined();
  });
});

describe('chooseFfmpeg', () => {
  it('uses the ffmpeg on PATH when it is 5.0 or newer', async () => {
    const chosen = await chooseFfmpeg(undefined, probeOf({ ffmpeg: banner('6.1.1') }));
    expect(chosen).toEqual({ path: 'ffmpeg', version: '6.1.1', source: 'PATH' });
  });

  it('refuses an ffmpeg on PATH older than 5.0, saying how to choose another', async () => {
    const chosen = chooseFfmpeg(undefined, probeOf({ ffmpeg: banner('4.1') }));
    await expect(chosen).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/ffmpeg on PATH is 4\.1, older than 5\.0.*FOLIO_FFMPEG/),
    });
  });

  it("finds Homebrew's ffmpeg on a Mac, whose apps opened from the Finder do not have it on PATH", async () => {
    const probe = probeOf({ '/opt/homebrew/bin/ffmpeg': banner('7.1') });
    expect(await chooseFfmpeg(undefined, probe, 'darwin')).toEqual({
      path: '/opt/homebrew/bin/ffmpeg',
      version: '7.1',
      source: 'Homebrew',
    });
    await expect(chooseFfmpeg(undefined, probe, 'linux')).rejects.toThrow(/no ffmpeg found/);
  });

  it('says to install ffmpeg when there is none', async () => {
    await expect(chooseFfmpeg(undefined, probeOf({}))).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/no ffmpeg.*install ffmpeg.*FOLIO_FFMPEG/i),
    });
  });

  it('uses the ffmpeg FOLIO_FFMPEG names, whatever its version, over the one on PATH', async () => {
    const probe = probeOf({
      ffmpeg: banner('6.1.1'),
      '/opt/ffmpeg/bin/ffmpeg': banner('4.4.2-0ubuntu0.22.04.1'),
    });
    expect(await chooseFfmpeg('/opt/ffmpeg/bin/ffmpeg', probe)).toEqual({
      path: '/opt/ffmpeg/bin/ffmpeg',
      version: '4.4.2-0ubuntu0.22.04.1',
      source: 'FOLIO_FFMPEG',
    });
  });

  it('names the FOLIO_FFMPEG binary that cannot be run, never falling back to another', async () => {
    const probe = probeOf({ ffmpeg: banner('6.1.1'), '/bin/true': 'nothing useful' });
    await expect(chooseFfmpeg('/nope/ffmpeg', probe)).rejects.toThrow(
      /FOLIO_FFMPEG \(\/nope\/ffmpeg\).*ENOENT/,
    );
    await expect(chooseFfmpeg('/bin/true', probe)).rejects.toThrow(
      /FOLIO_FFMPEG \(\/bin\/true\) is not ffmpeg/,
    );
  });
});

describe('choosing the ffmpeg and the longest recording', () => {
  it('FOLIO_FFMPEG or --ffmpeg names the binary, FOLIO_MAX_AUDIO_SECONDS the longest recording, FOLIO_MAX_DECODE_MEMORY_MB its memory', () => {
    const env = {
      FOLIO_DATA_DIR: '/tmp/x',
      FOLIO_FFMPEG: '/opt/ffmpeg',
      FOLIO_MAX_AUDIO_SECONDS: '600',
      FOLIO_MAX_DECODE_MEMORY_MB: '4096',
    };
    const config = configFromProcess([], env);
    expect(config).toMatchObject({
      ffmpeg: '/opt/ffmpeg',
      limits: { audioSeconds: 600, decodeMemoryMb: 4096 },
    });
    expect(configFromProcess(['--ffmpeg', '/usr/local/bin/ffmpeg'], env).ffmpeg).toBe(
      '/usr/local/bin/ffmpeg',
    );
    expect(configFromProcess([], { FOLIO_DATA_DIR: '/tmp/x' })).toMatchObject({ ffmpeg: undefined });
  });

  it('reads the choice as the start-up line prints it', () => {
    expect(describeFfmpeg({ path: 'ffmpeg', version: '5.1.9', source: 'PATH' })).toBe(
      'ffmpeg 5.1.9 (on PATH)',
    );
    expect(describeFfmpeg({ path: '/opt/ff', version: '7.1', source: 'FOLIO_FFMPEG' })).toBe(
      'ffmpeg 7.1 (/opt/ff, from FOLIO_FFMPEG)',
    );
  });
});
