import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioDecodeError } from '../../../../server/engines/whisper/errors.js';
import type { EngineResult, WhisperEngine } from '../../../../server/engines/whisper/types.js';
import { createWhisperEngine, defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { generateModel } from '../../../helpers/generate-model.js';
import { encode, formats, speak } from '../../../helpers/speech.js';

const built = existsSync(defaultWorkerPath);
if (!built)
  console.warn(`skipping whisper engine tests: ${defaultWorkerPath} not built (run npm run build:whisper)`);

function expectWellFormed(result: EngineResult) {
  expect(result.segments.length).toBeGreaterThan(0);
  let prev = { start: 0, end: 0 };
  for (const s of result.segments) {
    expect(s.start).toBeGreaterThanOrEqual(prev.start);
    expect(s.end).toBeGreaterThanOrEqual(prev.end);
    expect(s.end).toBeGreaterThanOrEqual(s.start);
    expect(s.end).toBeLessThanOrEqual(result.duration);
    for (const w of s.words) {
      expect(w.start).toBeLessThanOrEqual(w.end);
      expect(w.start).toBeGreaterThanOrEqual(s.start);
      expect(w.end).toBeLessThanOrEqual(s.end);
      expect(w.word.length).toBeGreaterThan(0);
    }
    prev = s;
  }
}

describe.skipIf(!built)('whisper engine (micro random model)', () => {
  let dir: string;
  let engine: WhisperEngine;
  let wav: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-engine-'));
    generateModel(join(dir, 'micro.bin'), { preset: 'micro', seed: 7 });
    wav = speak(dir, 'hello', 'Hello world. This is a test of the Folio transcription engine.');
    engine = createWhisperEngine({ modelPath: join(dir, 'micro.bin'), threads: 2, tmpDir: join(dir, 'tmp') });
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the model once and reports ready', async () => {
    await engine.ready();
    expect(engine.status()).toMatchObject({ loads: 1 });
  });

  it.each(Object.keys(formats))('transcribes %s with ordered timestamps inside the audio', async (ext) => {
    const file = encode(wav, join(dir, `hello.${ext}`), formats[ext as keyof typeof formats]);
    const result = await engine.transcribeFile(file);
    expect(result.duration).toBeGreaterThan(2);
    expect(result.language).toBe('en');
    expectWellFormed(result);
  });

  it('reports integer progress that only rises and ends at 100, and segments as they come', async () => {
    const progress: number[] = [];
    const streamed: number[] = [];
    const result = await engine.transcribeFile(wav, {
      onProgress: (p) => progress.push(p),
      onSegment: (s) => streamed.push(s.id),
    });
    expect(progress.at(-1)).toBe(100);
    expect(progress.every((p, i) => Number.isInteger(p) && (i === 0 || p > progress[i - 1]))).toBe(true);
    expect(streamed).toEqual(result.segments.map((s) => s.id));
  });

  it('keeps one worker and one model load across three jobs', async () => {
    const before = engine.status();
    for (let i = 0; i < 3; i++) await engine.transcribeFile(wav);
    expect(engine.status()).toEqual(before);
    expect(before.loads).toBe(1);
  });

  it('transcribes raw float32 PCM', async () => {
    const pcm = new Float32Array(16_000 * 2).map((_, i) => 0.3 * Math.sin(i / 10));
    const result = await engine.transcribePcm(pcm);
    expect(result.duration).toBe(2);
  });

  it('rejects corrupt audio with AudioDecodeError and keeps working', async () => {
    const bad = join(dir, 'corrupt.mp3');
    writeFileSync(bad, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    const err = await engine.transcribeFile(bad).catch((e) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect(err.message).toMatch(/^could not decode audio: /);
    expectWellFormed(await engine.transcribeFile(wav));
  });

  it('restarts a worker killed with SIGKILL on the next job', async () => {
    const { pid } = engine.status();
    process.kill(pid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    expectWellFormed(await engine.transcribeFile(wav));
    expect(engine.status().pid).not.toBe(pid);
    expect(engine.status().loads).toBe(2);
  });

  it('passes file names to ffmpeg as data, never through a shell', async () => {
    const cwd = process.cwd();
    const nasty = join(dir, 'my clip; touch INJECTED $(touch INJECTED2).mp3');
    encode(wav, nasty, formats.mp3);
    expectWellFormed(await engine.transcribeFile(nasty));
    expect(readdirSync(dir).filter((f) => f.startsWith('INJECTED'))).toEqual([]);
    expect(readdirSync(cwd).filter((f) => f.startsWith('INJECTED'))).toEqual([]);
    expect(process.cwd()).toBe(cwd);
  });

  it('leaves no decoded PCM behind', () => {
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });
});

describe.skipIf(!built)('whisper engine model errors', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-engine-model-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const open = (modelPath: string) =>
    createWhisperEngine({ modelPath, threads: 1, tmpDir: join(dir, 'tmp') });

  it('a missing model file rejects ready() naming the file', async () => {
    const engine = open(join(dir, 'nope.bin'));
    await expect(engine.ready()).rejects.toMatchObject({
      name: 'EngineError',
      code: 'model_missing',
      message: expect.stringContaining('nope.bin'),
    });
    await expect(engine.transcribeFile(join(dir, 'x.wav'))).rejects.toMatchObject({ code: 'model_missing' });
  });

  it('random bytes are rejected as not a ggml model', async () => {
    writeFileSync(join(dir, 'random.bin'), Buffer.alloc(4096, 7));
    await expect(open(join(dir, 'random.bin')).ready()).rejects.toMatchObject({
      code: 'model_invalid',
      message: expect.stringMatching(/bad magic/),
    });
  });

  it('a truncated model is rejected before whisper.cpp would load it as an empty model', async () => {
    const full = join(dir, 'full.bin');
    generateModel(full, { preset: 'micro' });
    const truncated = join(dir, 'truncated.bin');
    writeFileSync(truncated, readFileSync(full).subarray(0, 3_000_000));
    await expect(open(truncated).ready()).rejects.toMatchObject({
      code: 'model_invalid',
      message: expect.stringMatching(/truncated/),
    });
  });

  it('a model whisper.cpp cannot load fails in the worker, not in this process', async () => {
    const full = readFileSync(join(dir, 'full.bin'));
    const broken = join(dir, 'broken.bin');
    // valid header and size, but a tensor name the loader does not know
    const corrupt = Buffer.from(full);
    corrupt.write('encoder.unknown__embedding__', corrupt.indexOf('encoder.positional_embedding'));
    writeFileSync(broken, corrupt);
    const engine = open(broken);
    await expect(engine.ready()).rejects.toMatchObject({ name: 'EngineError', code: 'model_invalid' });
    expect(engine.status().pid).toBeUndefined();
  });

  it('a missing worker binary says how to build it', async () => {
    const engine = createWhisperEngine({
      modelPath: join(dir, 'full.bin'),
      threads: 1,
      tmpDir: dir,
      workerPath: join(dir, 'no-worker'),
    });
    await expect(engine.ready()).rejects.toMatchObject({
      code: 'not_built',
      message: expect.stringContaining('npm run build:whisper'),
    });
  });
});
