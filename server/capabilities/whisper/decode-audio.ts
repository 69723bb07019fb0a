/** Any audio/video file -> raw float32 16 kHz mono PCM, via ffmpeg spawned without a shell. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { AudioDecodeError, TranscriptionAbortedError } from './errors.js';

export const SAMPLE_RATE = 16_000;

let cachedFfmpeg: string | undefined;

/** The static binary from @ffmpeg-installer/ffmpeg when present, else `ffmpeg` from PATH. */
export function ffmpegPath(): string {
  if (cachedFfmpeg) return cachedFfmpeg;
  try {
    const installed = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    cachedFfmpeg = existsSync(installed.path) ? installed.path : 'ffmpeg';
  } catch {
    cachedFfmpeg = 'ffmpeg';
  }
  return cachedFfmpeg;
}

/** Decodes `inputPath` into `outPcmPath`; returns the duration in seconds. */
export async function decodeAudio(
  inputPath: string,
  outPcmPath: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<{ duration: number }> {
  if (signal?.aborted) throw new TranscriptionAbortedError();
  // "file:" stops ffmpeg reading a name such as "-x" or "pipe:1" as an option or protocol
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-i',
    `file:${resolve(inputPath)}`,
    '-vn',
    '-ar',
    String(SAMPLE_RATE),
    '-ac',
    '1',
    '-f',
    'f32le',
    `file:${resolve(outPcmPath)}`,
  ];
  await runFfmpeg(args, signal);
  const { size } = await stat(outPcmPath);
  if (size === 0) throw new AudioDecodeError('could not decode audio: the file has no audio samples');
  return { duration: size / 4 / SAMPLE_RATE };
}

function runFfmpeg(args: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 8192) stderr += chunk;
    });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) =>
      fail(new AudioDecodeError(`could not decode audio: cannot run ffmpeg (${err.message})`)),
    );
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) fail(new TranscriptionAbortedError());
      else if (code === 0) done();
      else
        fail(
          new AudioDecodeError(
            `could not decode audio: ${firstErrorLine(stderr) ?? `ffmpeg exited with code ${code}`}`,
          ),
        );
    });
  });
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
