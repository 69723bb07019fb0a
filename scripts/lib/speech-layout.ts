/**
 * Recordings whose speech is known: espeak-ng phrases placed between stretches of digital silence and of noise, as
 * 16 kHz mono float32 samples, with where each phrase's voice begins and ends. Tests and bench/vad.ts measure voice
 * activity detection against them; espeak-ng and ffmpeg must be installed (CI installs both).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wavHeader } from '../../server/domains/realtime/wav.js';

export const RATE = 16_000;

export type Part =
  | { silence: number }
  /** White noise at this RMS (0.01 is a quiet room's hiss, 0.05 a loud fan); `seed` makes it repeatable. */
  | { noise: number; rms?: number; seed?: number }
  | { say: string };

export interface Layout {
  samples: Float32Array;
  /** [start, end] in seconds of each phrase's voice (its first to its last sample above the noise floor). */
  speech: Array<[number, number]>;
  seconds: number;
}

/** A phrase as espeak-ng says it, resampled to 16 kHz mono float32. */
function spoken(text: string): Float32Array {
  const dir = mkdtempSync(join(tmpdir(), 'folio-say-'));
  try {
    const wav = join(dir, 'say.wav');
    execFileSync('espeak-ng', ['-w', wav, text]);
    const raw = execFileSync(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-i', wav, '-f', 'f32le', '-ac', '1', '-ar', `${RATE}`, '-'],
      {
        maxBuffer: 1 << 28,
      },
    );
    return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4).slice();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Repeatable Gaussian noise (mulberry32 and Box-Muller). */
function noise(count: number, rms: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++)
    out[i] = rms * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return out;
}

/** Lays the parts end to end; the same phrase is spoken once and reused. */
export function layout(parts: Part[]): Layout {
  const said = new Map<string, Float32Array>();
  const pieces: Float32Array[] = [];
  const speech: Array<[number, number]> = [];
  let at = 0;
  for (const part of parts) {
    let piece: Float32Array;
    if ('say' in part) {
      piece = said.get(part.say) ?? spoken(part.say);
      said.set(part.say, piece);
      const loud = (x: number) => Math.abs(x) > 0.01;
      const first = piece.findIndex(loud);
      const last = piece.findLastIndex(loud);
      if (first >= 0) speech.push([(at + first) / RATE, (at + last + 1) / RATE]);
    } else if ('noise' in part) {
      piece = noise(Math.round(part.noise * RATE), part.rms ?? 0.01, part.seed ?? at + 1);
    } else piece = new Float32Array(Math.round(part.silence * RATE));
    pieces.push(piece);
    at += piece.length;
  }
  const samples = new Float32Array(at);
  let offset = 0;
  for (const piece of pieces) {
    samples.set(piece, offset);
    offset += piece.length;
  }
  return { samples, speech, seconds: at / RATE };
}

/** The samples as a 16-bit PCM WAV file's bytes. */
export function layoutWav({ samples }: Layout): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++)
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
  return Buffer.concat([wavHeader(data.length, RATE), data]);
}

/**
 * The share of 10 ms frames on which `found` (speech intervals, seconds) agrees with the layout's speech: both
 * call it speech, or both do not.
 */
export function frameAgreement(
  known: Array<[number, number]>,
  found: Array<{ start: number; end: number }>,
  seconds: number,
) {
  const inside = (list: Array<[number, number]>, t: number) => list.some(([s, e]) => t >= s && t < e);
  const foundPairs = found.map(({ start, end }): [number, number] => [start, end]);
  const frames = Math.floor(seconds * 100);
  let agree = 0;
  for (let f = 0; f < frames; f++) {
    const t = (f + 0.5) / 100;
    if (inside(known, t) === inside(foundPairs, t)) agree++;
  }
  return agree / frames;
}
