/** Speech clips for engine tests: espeak-ng and ffmpeg (required, CI installs both) make and re-encode them. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const formats = {
  mp3: ['-c:a', 'libmp3lame'],
  ogg: ['-c:a', 'libopus'],
  flac: ['-c:a', 'flac'],
  m4a: ['-c:a', 'aac'],
  webm: ['-c:a', 'libopus'],
} as const;

export function speak(dir: string, name: string, text: string): string {
  const wav = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-w', wav, text]);
  return wav;
}

export function encode(wav: string, out: string, codec: readonly string[], extra: string[] = []): string {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', wav, ...extra, ...codec, out]);
  return out;
}

/** Pads (or trims) a clip with silence to exactly `seconds`. */
export function padTo(wav: string, out: string, seconds: number): string {
  return encode(
    wav,
    out,
    ['-c:a', 'pcm_s16le'],
    ['-af', 'apad', '-t', String(seconds), '-ar', '16000', '-ac', '1'],
  );
}
