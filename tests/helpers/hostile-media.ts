/**
 * Hostile media made at test time (no binary fixtures): files built to cost a reader of media facts or a decoder
 * as much as possible, or to make ffmpeg read something other than the upload. Each maker returns the file's bytes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wavHeader } from '../../server/domains/realtime/wav.js';

// ---------- Matroska, written element by element (EBML) ----------

/** An EBML element: its id's bytes as the spec writes them, then its size as an 8-byte vint, then its body. */
function element(id: number, body: Buffer): Buffer {
  const idBytes = Buffer.from(
    id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'),
    'hex',
  );
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length) | (1n << 56n)); // 0x01 marker: an 8-byte length
  return Buffer.concat([idBytes, size, body]);
}

const uint = (id: number, value: number) => {
  const body = Buffer.alloc(4);
  body.writeUInt32BE(value);
  return element(id, body);
};
const float = (id: number, value: number) => {
  const body = Buffer.alloc(8);
  body.writeDoubleBE(value);
  return element(id, body);
};
const text = (id: number, value: string) => element(id, Buffer.from(value, 'ascii'));

/**
 * A Matroska file with `tracks` audio tracks (8 kHz mono PCM) and one cluster of `seconds` of silence on track 1:
 * about 60 bytes a track, so 70,000 tracks are a 4 MB upload.
 */
export function manyTrackMatroska(tracks: number, seconds = 1): Buffer {
  const header = element(
    0x1a45dfa3,
    Buffer.concat([
      uint(0x4286, 1),
      uint(0x42f7, 1),
      uint(0x42f2, 4),
      uint(0x42f3, 8),
      text(0x4282, 'matroska'),
      uint(0x4287, 4),
      uint(0x4285, 2),
    ]),
  );
  const info = element(
    0x1549a966,
    Buffer.concat([
      uint(0x2ad7b1, 1_000_000),
      float(0x4489, seconds * 1000),
      text(0x4d80, 'folio-tests'),
      text(0x5741, 'folio-tests'),
    ]),
  );
  const entries: Buffer[] = [];
  for (let n = 1; n <= tracks; n++) {
    const audio = element(0xe1, Buffer.concat([float(0xb5, 8000), uint(0x9f, 1), uint(0x6264, 16)]));
    entries.push(
      element(
        0xae,
        Buffer.concat([uint(0xd7, n), uint(0x73c5, n), uint(0x83, 2), text(0x86, 'A_PCM/INT/LIT'), audio]),
      ),
    );
  }
  const block = Buffer.concat([Buffer.from([0x81, 0x00, 0x00, 0x80]), Buffer.alloc(8000 * 2 * seconds)]);
  const cluster = element(0x1f43b675, Buffer.concat([uint(0xe7, 0), element(0xa3, block)]));
  return Buffer.concat([
    header,
    element(0x18538067, Buffer.concat([info, element(0x1654ae6b, Buffer.concat(entries)), cluster])),
  ]);
}

// ---------- made with ffmpeg ----------

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

/** A WAV whose header claims `days` of 48 kHz stereo audio (as far as 32 bits can say), holding one second of it. */
export function wavClaiming(days: number): Buffer {
  const header = wavHeader(Math.min(0xffffffff - 36, days * 86_400 * 48_000 * 4), 48_000, 2);
  return Buffer.concat([header, Buffer.alloc(48_000 * 4)]);
}

/** `hours` of silence in a few kilobytes of FLAC: a decompression bomb for anything that decodes it whole. */
export function silenceBomb(dir: string, hours: number): Buffer {
  const out = join(dir, `silence-${hours}h.flac`);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=8000:cl=mono:d=${hours * 3600}`,
    '-c:a',
    'flac',
    '-compression_level',
    '12',
    out,
  ]);
  return readFileSync(out);
}

/** `wav` re-encoded by ffmpeg with `codec` into `name` (its extension names the container). */
export function reencoded(dir: string, wav: string, name: string, codec: string[]): Buffer {
  const out = join(dir, name);
  ffmpeg(['-i', wav, ...codec, out]);
  return readFileSync(out);
}

/** A short video with no audio stream at all. */
export function videoOnly(dir: string): Buffer {
  const out = join(dir, 'video-only.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5:duration=1', '-an', '-c:v', 'mpeg4', out]);
  return readFileSync(out);
}

/** A two-second tone whose tags and title read as URLs, protocols and paths (nothing may follow them). */
export function trickTags(dir: string, target: string): Buffer {
  const out = join(dir, 'tricks.mka');
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
    ...[
      '-metadata',
      `title=file:${target}`,
      '-metadata',
      'comment=http://127.0.0.1:9/leak',
      '-metadata',
      'artist=pipe:1',
    ],
    out,
  ]);
  return readFileSync(out);
}

/** An HLS playlist naming `target`, a file elsewhere on the machine. */
export const hlsPlaylist = (target: string) =>
  Buffer.from(['#EXTM3U', '#EXT-X-TARGETDURATION:10', '#EXTINF:2,', target, '#EXT-X-ENDLIST', ''].join('\n'));

/** An ffconcat script naming `target`. */
export const concatScript = (target: string) => Buffer.from(`ffconcat version 1.0\nfile '${target}'\n`);

/**
 * `count` copies of `bytes`, each with a few bytes flipped at seeded places among the first `within` (the headers,
 * where a flip most often leads a demuxer astray); the same seed, the same files.
 */
export function fuzzed(bytes: Buffer, count: number, seed = 1, within = bytes.length): Buffer[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  return Array.from({ length: count }, () => {
    const copy = Buffer.from(bytes);
    const flips = 1 + Math.floor(next() * 16);
    const span = Math.min(within, copy.length);
    for (let i = 0; i < flips; i++) copy[Math.floor(next() * span)] = Math.floor(next() * 256);
    return copy;
  });
}
