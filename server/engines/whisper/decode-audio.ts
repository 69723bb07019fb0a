/**
 * Any audio/video file -> raw float32 16 kHz mono PCM, via ffmpeg (started by a shell that only sets its memory limit
 * and never sees the file name as syntax). The file is untrusted, so the decode is bounded: recording formats only (a
 * playlist or concat script cannot name other files to read), the file protocol only (nothing can fetch a URL), one
 * decoding thread, output capped at the longest recording allowed (a tiny file can claim days of audio), a wall-clock
 * limit, and an address-space limit (memory-limit.ts; none on Windows) that a file making ffmpeg allocate without end
 * runs into. Crossing a limit stops ffmpeg and fails this one decode with an error that says which limit.
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AudioDecodeError, TranscriptionAbortedError } from './errors.js';
import {
  cannotExec,
  DEFAULT_DECODE_MEMORY_MB,
  ranOutOfMemory,
  spawnWithMemoryLimit,
} from './memory-limit.js';

export const SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = SAMPLE_RATE * 4;
/** The longest recording decoded unless configured (FOLIO_MAX_AUDIO_SECONDS): 4 h, 922 MB of PCM. */
export const DEFAULT_MAX_AUDIO_SECONDS = 4 * 3600;

/** Demuxers an upload may be read with: recordings only, as hls, concat, image2 ... open files they name. */
export const RECORDING_DEMUXERS = // mov is also mp4/m4a/3gp, matroska webm, ogg opus, asf wma, mpeg a .mpg
  'mov,matroska,wav,w64,mp3,ogg,flac,aac,aiff,caf,amr,asf,avi,flv,mpegts,mpeg,au';

export type DecodeOptions = {
  /** The ffmpeg binary (ffmpeg-binary.ts chooses it). */
  ffmpeg: string;
  /** The longest recording accepted: more decoded audio than this fails the decode. */
  maxSeconds?: number;
  /** Wall-clock limit; by default 30 s plus a tenth of maxSeconds (decoding runs far faster than real time). */
  timeoutMs?: number;
  /** ffmpeg's address space in MiB (DEFAULT_DECODE_MEMORY_MB); not enforced on Windows. */
  maxMemoryMb?: number;
  signal?: AbortSignal;
};

/** Decodes `inputPath` into `outPcmPath`; returns the duration in seconds. */
export async function decodeAudio(
  inputPath: string,
  outPcmPath: string,
  { ffmpeg, maxSeconds = DEFAULT_MAX_AUDIO_SECONDS, timeoutMs, maxMemoryMb, signal }: DecodeOptions,
): Promise<{ duration: number }> {
  if (signal?.aborted) throw new TranscriptionAbortedError();
  const limits = {
    maxBytes: maxSeconds * BYTES_PER_SECOND,
    timeoutMs: timeoutMs ?? 30_000 + maxSeconds * 100,
    memoryMb: maxMemoryMb ?? DEFAULT_DECODE_MEMORY_MB,
  };
  const size = await runFfmpeg(ffmpeg, decodeArgs(inputPath, maxSeconds), outPcmPath, limits, signal);
  if (size === 0) throw new AudioDecodeError('could not decode audio: the file has no audio samples');
  return { duration: size / BYTES_PER_SECOND };
}

function decodeArgs(inputPath: string, maxSeconds: number): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-v', 'error'],
    // input: recording formats only, the file protocol only (no http, tcp, data: ...), one thread. mov's external
    // data references (enable_drefs) stay off by default; naming that option here would fail every non-mov input
    ...['-format_whitelist', RECORDING_DEMUXERS, '-protocol_whitelist', 'file', '-threads', '1'],
    // "file:" stops ffmpeg reading a name such as "-x" or "pipe:1" as an option or protocol
    ...['-i', `file:${resolve(inputPath)}`],
    // a second past the limit, so that crossing it shows in the byte count even if ffmpeg stops itself
    ...['-vn', '-sn', '-dn', '-ar', String(SAMPLE_RATE), '-ac', '1', '-t', String(maxSeconds + 1)],
    ...['-f', 'f32le', 'pipe:1'],
  ];
}

type Limits = { maxBytes: number; timeoutMs: number; memoryMb: number };
type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** Runs ffmpeg with its output streamed into `outPath`; resolves the bytes written. */
async function runFfmpeg(
  ffmpeg: string,
  args: string[],
  outPath: string,
  { maxBytes, timeoutMs, memoryMb }: Limits,
  signal?: AbortSignal,
): Promise<number> {
  const child = spawnWithMemoryLimit(ffmpeg, args, memoryMb);
  let stopped: Error | undefined;
  const stop = (reason: Error) => {
    stopped ??= reason;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => stop(tookTooLong(timeoutMs)), timeoutMs);
  const onAbort = () => stop(new TranscriptionAbortedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  const stderr = firstBytesOf(child.stderr, 8192);
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      bytes += chunk.length;
      if (bytes <= maxBytes) return next(null, chunk);
      stop(tooLong(maxBytes));
      next();
    },
  });
  const exited = new Promise<Exit>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code, killedBy) => done({ code, signal: killedBy }));
  });
  const [exit, written] = await Promise.allSettled([
    exited,
    pipeline(child.stdout, cap, createWriteStream(outPath)),
  ]);
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
  if (stopped) throw stopped;
  if (exit.status === 'rejected')
    throw new AudioDecodeError(
      `could not decode audio: cannot run ffmpeg (${(exit.reason as Error).message})`,
    );
  if (exit.value.code !== 0) throw failed(stderr(), exit.value, memoryMb);
  if (written.status === 'rejected') throw written.reason;
  return bytes;
}

function failed(stderr: string, { code, signal }: Exit, memoryMb: number): AudioDecodeError {
  const unrunnable = cannotExec(stderr, code);
  if (unrunnable) return new AudioDecodeError(`could not decode audio: cannot run ffmpeg (${unrunnable})`);
  if (ranOutOfMemory(stderr, signal))
    return new AudioDecodeError(
      `could not decode audio: decoding needed more memory than a decode may use (${memoryMb} MiB)`,
    );
  // ffmpeg's words when the probed format is not on -format_whitelist: "[hls @ 0x...] Format not on whitelist '...'"
  const refused = /\[(\S+) @ [^\]]*\] Format not on whitelist/.exec(stderr);
  if (refused)
    return new AudioDecodeError(
      `could not decode audio: the file is not an audio or video recording ffmpeg may read (it reads as ${refused[1]})`,
    );
  return new AudioDecodeError(
    `could not decode audio: ${firstErrorLine(stderr) ?? `ffmpeg exited with ${signal ?? `code ${code}`}`}`,
  );
}

const tooLong = (maxBytes: number) =>
  new AudioDecodeError(
    `could not decode audio: it is longer than the ${maxBytes / BYTES_PER_SECOND} seconds a recording may last`,
  );

const tookTooLong = (timeoutMs: number) =>
  new AudioDecodeError(
    `could not decode audio: ffmpeg did not finish within ${Math.round(timeoutMs / 1000)} s, so it was stopped`,
  );

function firstBytesOf(stream: NodeJS.ReadableStream, max: number): () => string {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    if (text.length < max) text += chunk;
  });
  return () => text;
}

function firstErrorLine(stderr: string): string | undefined {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
}

/** Little-endian signed 16-bit PCM (e.g. a realtime mic stream) -> float32 in [-1, 1). */
export function decodePcmS16ToF32(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}
