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
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AudioDecodeError, TranscriptionAbortedError } from './errors.js';
import {
  cannotExec,
  DEFAULT_DECODE_MEMORY_MB,
  memoryLimited,
  OUT_OF_MEMORY,
  spawnWithMemoryLimit,
} from './memory-limit.js';

export const SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = SAMPLE_RATE * 4;

/** The float32 PCM a decode writes: Whisper's is 16 kHz mono; speakers by channel read two channels. */
export type PcmLayout = { sampleRate: number; channels: number };
const WHISPER_PCM: PcmLayout = { sampleRate: SAMPLE_RATE, channels: 1 };
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
  /** A decode that writes no audio for this long is stopped (a hung read); default 60 s. */
  stallMs?: number;
  signal?: AbortSignal;
};

const DEFAULT_DECODE_STALL_MS = 60_000;

/** Decodes `inputPath` into `outPcmPath`; returns the duration in seconds. */
export async function decodeAudio(
  inputPath: string,
  outPcmPath: string,
  options: DecodeOptions,
): Promise<{ duration: number }> {
  const size = await decodePcm(inputPath, createWriteStream(outPcmPath), WHISPER_PCM, options);
  if (size === 0) throw new AudioDecodeError('could not decode audio: the file has no audio samples');
  return { duration: size / BYTES_PER_SECOND };
}

/** Decodes `inputPath` as float32 PCM in `layout` into `sink`, under the same limits; resolves the bytes written. */
export async function decodePcm(
  inputPath: string,
  sink: Writable,
  layout: PcmLayout,
  { ffmpeg, maxSeconds = DEFAULT_MAX_AUDIO_SECONDS, timeoutMs, maxMemoryMb, stallMs, signal }: DecodeOptions,
): Promise<number> {
  if (signal?.aborted) throw new TranscriptionAbortedError();
  const limits = {
    maxBytes: maxSeconds * layout.sampleRate * layout.channels * 4,
    bytesPerSecond: layout.sampleRate * layout.channels * 4,
    timeoutMs: timeoutMs ?? 30_000 + maxSeconds * 100,
    memoryMb: maxMemoryMb ?? DEFAULT_DECODE_MEMORY_MB,
    stallMs: stallMs ?? DEFAULT_DECODE_STALL_MS,
  };
  const args = decodeArgs(inputPath, maxSeconds, layout);
  return runFfmpeg(ffmpeg, args, inputPath, sink, limits, signal);
}

function decodeArgs(inputPath: string, maxSeconds: number, { sampleRate, channels }: PcmLayout): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-v', 'error'],
    // input: recording formats only, the file protocol only (no http, tcp, data: ...), one thread. mov's external
    // data references (enable_drefs) stay off by default; naming that option here would fail every non-mov input
    ...['-format_whitelist', RECORDING_DEMUXERS, '-protocol_whitelist', 'file', '-threads', '1'],
    // "file:" stops ffmpeg reading a name such as "-x" or "pipe:1" as an option or protocol
    ...['-i', `file:${resolve(inputPath)}`],
    // a second past the limit, so that crossing it shows in the byte count even if ffmpeg stops itself
    ...[
      '-vn',
      '-sn',
      '-dn',
      '-ar',
      String(sampleRate),
      '-ac',
      String(channels),
      '-t',
      String(maxSeconds + 1),
    ],
    // the resampling filter graph runs on one thread too (ffmpeg's default is a thread per core)
    ...['-filter_threads', '1'],
    ...['-f', 'f32le', 'pipe:1'],
  ];
}

type Limits = {
  maxBytes: number;
  bytesPerSecond: number;
  timeoutMs: number;
  memoryMb: number;
  stallMs: number;
};
type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** Runs ffmpeg with its output streamed into `sink`; resolves the bytes written. */
async function runFfmpeg(
  ffmpeg: string,
  args: string[],
  inputPath: string,
  sink: Writable,
  { maxBytes, bytesPerSecond, timeoutMs, memoryMb, stallMs }: Limits,
  signal?: AbortSignal,
): Promise<number> {
  const child = spawnWithMemoryLimit(ffmpeg, args, memoryMb);
  let stopped: Error | undefined;
  const stop = (reason: Error) => {
    stopped ??= reason;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => stop(tookTooLong(timeoutMs)), timeoutMs);
  const stall = setTimeout(() => stop(stalled(stallMs)), stallMs);
  const onAbort = () => stop(new TranscriptionAbortedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  const stderr = firstBytesOf(child.stderr, 8192);
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      stall.refresh();
      bytes += chunk.length;
      if (bytes <= maxBytes) return next(null, chunk);
      stop(tooLong(maxBytes / bytesPerSecond));
      next();
    },
  });
  const exited = new Promise<Exit>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code, killedBy) => done({ code, signal: killedBy }));
  });
  const [exit, written] = await Promise.allSettled([exited, pipeline(child.stdout, cap, sink)]);
  clearTimeout(timer);
  clearTimeout(stall);
  signal?.removeEventListener('abort', onAbort);
  if (stopped) throw stopped;
  if (exit.status === 'rejected')
    throw new AudioDecodeError(
      `could not decode audio: cannot run ffmpeg (${(exit.reason as Error).message})`,
    );
  if (exit.value.code !== 0) throw failed(stderr(), exit.value, memoryMb, inputPath);
  if (written.status === 'rejected') throw written.reason;
  return bytes;
}

/** Why ffmpeg failed, in the caller's terms: no server path, no addresses, and each cause in words of its own. */
function failed(
  stderr: string,
  { code, signal }: Exit,
  memoryMb: number,
  inputPath: string,
): AudioDecodeError {
  const says = (message: string) => new AudioDecodeError(`could not decode audio: ${message}`);
  const unrunnable = cannotExec(stderr, code);
  if (unrunnable) return says(`cannot run ffmpeg (${unrunnable})`);
  const streams = /Number of streams exceeds max_streams parameter \((\d+)\)/.exec(stderr);
  if (streams)
    return says(`the file declares more than ${streams[1]} streams, more than a recording may have`);
  // ffmpeg's words when the probed format is not on -format_whitelist: "[hls @ 0x...] Format not on whitelist '...'"
  const refused = /\[(\S+) @ [^\]]*\] Format not on whitelist/.exec(stderr);
  if (refused)
    return says(`the file is not an audio or video recording ffmpeg may read (it reads as ${refused[1]})`);
  if (/does not contain any stream|matches no streams/.test(stderr)) return says('the file has no audio');
  if (signal === 'SIGKILL' || signal === 'SIGTERM' || signal === 'SIGINT' || signal === 'SIGHUP')
    return says(
      `ffmpeg was stopped from outside Folio (${signal}), for example by the system when memory ran short`,
    );
  const first = firstErrorLine(stderr);
  const demuxer = first && /^\[[^\]]+\]/.test(first) && !OUT_OF_MEMORY.test(first);
  if (!demuxer && OUT_OF_MEMORY.test(stderr))
    return says(`decoding needed more memory than a decode may use (${memoryMb} MiB)`);
  if (signal)
    return says(
      `ffmpeg crashed (${signal}): the file is damaged${memoryLimited ? `, or decoding needed more than the ${memoryMb} MiB a decode may use` : ''}`,
    );
  return says(first ? inCallerTerms(first, inputPath) : `ffmpeg exited with code ${code}`);
}

/** ffmpeg's line without the upload's path (it names the file as the server stores it) or memory addresses. */
function inCallerTerms(line: string, inputPath: string): string {
  return line
    .split(`file:${resolve(inputPath)}`)
    .join('the file')
    .split(resolve(inputPath))
    .join('the file')
    .replace(/ @ 0x[0-9a-f]+/gi, '')
    .replace(/(?:file:)?(?:\/[^\s'"/:]+){2,}\/?/g, '(a path)');
}

const tooLong = (maxSeconds: number) =>
  new AudioDecodeError(
    `could not decode audio: it is longer than the ${maxSeconds} seconds a recording may last`,
  );

const stalled = (stallMs: number) =>
  new AudioDecodeError(
    `could not decode audio: ffmpeg wrote no audio for ${Math.round(stallMs / 1000)} s, so it was stopped`,
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
