/** Local Whisper: one model loaded once in a worker process, jobs run one at a time off the event loop. */
import { randomUUID } from 'node:crypto';
import { access, constants, mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readChannelEnergy } from './channel-energy.js';
import { type DecodeOptions, decodeAudio, SAMPLE_RATE } from './decode-audio.js';
import type { DevicePreference } from './device.js';
import { EngineError, TranscriptionAbortedError } from './errors.js';
import { type Ffmpeg, ffmpegChooser } from './ffmpeg-binary.js';
import { findCatalogModel } from './model-catalog.js';
import { InvalidModelError, readModelHeader } from './model-header.js';
import { createSegmentNormalizer } from './segment-normalizer.js';
import { labelSpeakersByChannel } from './speakers-by-channel.js';
import type { EngineResult, Segment, TranscribeOptions, WhisperEngine } from './types.js';
import { createWorkerProcess } from './worker-process.js';

export interface WhisperEngineOptions {
  modelPath: string;
  threads: number;
  /** Defaults to build/whisper/folio-whisper-worker (made by `npm run build:whisper`). */
  workerPath?: string;
  /** Where decoded PCM is written for the worker; files are removed after each job. */
  tmpDir: string;
  /** DTW word timing preset; defaults to the catalog name of a standard model file ("ggml-base.en.bin" -> "base.en"). */
  dtwPreset?: string;
  /** How files are decoded: which ffmpeg (default: the one on PATH, 5.0 or newer), the longest recording, its memory. */
  decoder?: AudioDecoder;
  /** CPU or GPU (worker-process.ts); default auto. */
  device?: DevicePreference;
  /** A job with no sign of life for this long is ended (worker-process.ts DEFAULT_STALL_MS). */
  stallMs?: number;
}

export type AudioDecoder = { ffmpeg: () => Promise<Ffmpeg>; maxSeconds?: number; maxMemoryMb?: number };

export const defaultWorkerPath = fileURLToPath(
  new URL('../../../build/whisper/folio-whisper-worker', import.meta.url),
);

/** Create one engine per model file; a new model path needs a new engine. */
export function createWhisperEngine(options: WhisperEngineOptions): WhisperEngine {
  const workerPath = options.workerPath ?? defaultWorkerPath;
  const dtwPreset = options.dtwPreset ?? findCatalogModel(basename(options.modelPath))?.name;
  const decoder = options.decoder ?? { ffmpeg: ffmpegChooser(undefined) };
  const worker = createWorkerProcess({
    workerPath,
    modelPath: options.modelPath,
    threads: options.threads,
    dtwPreset,
    device: options.device,
    stallMs: options.stallMs,
  });
  let readying: Promise<void> | undefined;

  function ready(): Promise<void> {
    readying ??= checkAndLoad().catch((err) => {
      readying = undefined; // a fixed model file or a fresh build can succeed on the next call
      throw err;
    });
    return readying;
  }

  async function checkAndLoad(): Promise<void> {
    await access(workerPath, constants.X_OK).catch(() => {
      throw new EngineError(
        'not_built',
        `whisper engine not built (${workerPath} missing): run npm run build:whisper`,
      );
    });
    // whisper.cpp asserts or crashes on some malformed files; reject the obvious ones before the worker sees them
    await readModelHeader(options.modelPath).catch((err) => {
      throw err instanceof InvalidModelError ? new EngineError(err.code, err.message) : err;
    });
    await worker.start();
  }

  async function transcribeFile(path: string, opts: TranscribeOptions = {}): Promise<EngineResult> {
    await ready();
    const pcmPath = await tempPcmPath();
    try {
      const { path: ffmpeg } = await decoder.ffmpeg();
      const { maxSeconds, maxMemoryMb } = decoder;
      const decoding = { ffmpeg, maxSeconds, maxMemoryMb, stallMs: options.stallMs, signal: opts.signal };
      const { duration } = await decodeAudio(path, pcmPath, decoding);
      const speakers = channelSpeakers(path, decoding); // read while the worker transcribes
      try {
        const result = await runJob(pcmPath, duration, opts);
        return { ...result, segments: await speakers.label(result.segments) };
      } finally {
        speakers.stop();
      }
    } finally {
      await rm(pcmPath, { force: true });
    }
  }

  async function transcribePcm(pcm: Float32Array, opts: TranscribeOptions = {}): Promise<EngineResult> {
    await ready();
    const pcmPath = await tempPcmPath();
    try {
      await writeFile(pcmPath, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      return await runJob(pcmPath, pcm.length / SAMPLE_RATE, opts);
    } finally {
      await rm(pcmPath, { force: true });
    }
  }

  async function runJob(pcmPath: string, duration: number, opts: TranscribeOptions): Promise<EngineResult> {
    if (opts.signal?.aborted) throw new TranscriptionAbortedError();
    let segments: Segment[] = [];
    let normalize = createSegmentNormalizer(duration);
    const progress = createProgressReporter(opts.onProgress);
    const { language, prompt, threads, task, vad, guards, noTimestamps } = opts;
    const done = await worker.run(
      { pcmPath, language, prompt, threads, task, vad, guards, noTimestamps },
      {
        signal: opts.signal,
        onProgress: progress,
        onSegment: (raw) => {
          const segment = normalize(raw);
          segments.push(segment);
          opts.onSegment?.(segment);
        },
        onRestart: () => {
          // the GPU failed: the CPU sends every segment again, from the first
          segments = [];
          normalize = createSegmentNormalizer(duration);
        },
      },
    );
    progress(100);
    const text = segments
      .map((s) => s.text)
      .filter(Boolean)
      .join(' ');
    const result = { language: done.language, duration: Math.round(duration * 1000) / 1000, text, segments };
    return done.vad ? { ...result, vad: done.vad } : result;
  }

  async function tempPcmPath(): Promise<string> {
    await mkdir(options.tmpDir, { recursive: true });
    return join(options.tmpDir, `whisper-${randomUUID()}.f32`);
  }

  return {
    modelPath: options.modelPath,
    ready,
    transcribeFile,
    transcribePcm,
    status: worker.status,
    device: worker.device,
    close: worker.close,
  };
}

/**
 * Speakers from the channels' energy, read beside the transcription. A read that fails (a recording ffmpeg decoded
 * once but not twice) costs the labels, never the transcript.
 */
function channelSpeakers(path: string, decoding: DecodeOptions) {
  const stopping = new AbortController();
  const signal = decoding.signal ? AbortSignal.any([decoding.signal, stopping.signal]) : stopping.signal;
  const energy = readChannelEnergy(path, { ...decoding, signal }).catch(() => undefined);
  return {
    label: async (segments: Segment[]) => {
      const read = await energy;
      return read ? labelSpeakersByChannel(segments, read) : segments;
    },
    stop: () => stopping.abort(),
  };
}

/** Integer, clamped to 0..100, and never reported twice or backwards. */
function createProgressReporter(onProgress?: (percent: number) => void) {
  let last = -1;
  return (value: number) => {
    const percent = Math.min(100, Math.max(0, Math.floor(value)));
    if (percent <= last) return;
    last = percent;
    onProgress?.(percent);
  };
}
