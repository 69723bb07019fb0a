import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhisperEngine } from '../../../../server/engines/whisper/types.js';
import { createWhisperEngine, defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { generateModel } from '../../../helpers/generate-model.js';
import { padTo, speak } from '../../../helpers/speech.js';

const built = existsSync(defaultWorkerPath);

// tiny.en dimensions: 60 s takes several seconds here, so the cancel lands mid-job
describe.skipIf(!built)('cancelling a long transcription', () => {
  let dir: string;
  let engine: WhisperEngine;
  let long: string;
  let short: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-cancel-'));
    generateModel(join(dir, 'tiny.bin'), { preset: 'tiny.en', seed: 3 });
    short = speak(dir, 'short', 'The quick brown fox jumps over the lazy dog.');
    long = padTo(short, join(dir, 'long.wav'), 60);
    engine = createWhisperEngine({ modelPath: join(dir, 'tiny.bin'), threads: 2, tmpDir: join(dir, 'tmp') });
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops a 60 s job within 2 s with an AbortError, and the next job still works', async () => {
    await engine.ready();
    const controller = new AbortController();
    let abortedAt = 0;
    const job = engine.transcribeFile(long, {
      signal: controller.signal,
      onProgress: () => {
        if (abortedAt) return;
        // let the encoder get going before pulling the plug
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 300);
      },
    });
    const err = await job.catch((e) => e);
    const latency = performance.now() - abortedAt;
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(abortedAt).toBeGreaterThan(0);
    expect(latency).toBeLessThan(2000);
    console.log(`cancel latency: ${latency.toFixed(0)} ms`);

    // the worker stopped the job itself: same process, model still loaded
    const { pid, loads } = engine.status();
    const result = await engine.transcribeFile(short);
    expect(result.segments.length).toBeGreaterThan(0);
    expect(engine.status()).toMatchObject({ pid, loads: 1 });
    expect(loads).toBe(1);
  });

  it('a job cancelled while queued never runs', async () => {
    const controller = new AbortController();
    const first = engine.transcribeFile(short);
    const second = engine.transcribeFile(short, { signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    await expect(first).resolves.toMatchObject({ language: 'en' });
  });

  it('uses DTW word timing when the alignment-head preset fits the model, plain token times otherwise', async () => {
    const dtw = createWhisperEngine({
      modelPath: join(dir, 'tiny.bin'),
      threads: 2,
      tmpDir: join(dir, 'tmp'),
      dtwPreset: 'tiny.en',
    });
    const misfit = createWhisperEngine({
      modelPath: join(dir, 'tiny.bin'),
      threads: 2,
      tmpDir: join(dir, 'tmp'),
      dtwPreset: 'base.en',
    });
    try {
      // no temperature fallback: a random-weight tiny model fails every window's guards and would decode each six times
      const result = await dtw.transcribeFile(short, { guards: { temperatureInc: 0 } });
      expect(dtw.status().dtw).toBe(true);
      for (const s of result.segments) for (const w of s.words) expect(w.start).toBeLessThanOrEqual(w.end);
      await misfit.ready();
      expect(misfit.status().dtw).toBe(false);
    } finally {
      await Promise.all([dtw.close(), misfit.close()]);
    }
  });
});
