/**
 * Voice activity detection and the guards against invented text, on the real engine. The VAD runs the real Silero
 * VAD v5 weights (converted by npm run build:whisper), so what it finds is meaningful; the Whisper model is random
 * (its text is nonsense, and it writes text for silence too), so the guards are tested by what they change.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameAgreement, type Layout, layout } from '../../../../scripts/lib/speech-layout.js';
import type { WhisperEngine } from '../../../../server/engines/whisper/types.js';
import { createWhisperEngine, defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { generateModel } from '../../../helpers/generate-model.js';

const built = existsSync(defaultWorkerPath);

describe.skipIf(!built)('voice activity detection (real Silero VAD v5, micro random model)', () => {
  let dir: string;
  let engine: WhisperEngine;
  let recording: Layout;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-vad-'));
    generateModel(join(dir, 'micro.bin'), { preset: 'micro', seed: 7 });
    engine = createWhisperEngine({ modelPath: join(dir, 'micro.bin'), threads: 2, tmpDir: join(dir, 'tmp') });
    recording = layout([
      { silence: 6 },
      { say: 'The quick brown fox jumps over the lazy dog' },
      { noise: 3, rms: 0.02 },
      { say: 'Voice activity detection keeps only the speech' },
      { silence: 2.5 },
      { noise: 2, rms: 0.05 },
      { say: 'and leaves the silence out' },
      { silence: 1.5 },
    ]);
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the speech between silence and noise on at least 95 % of 10 ms frames', async () => {
    const result = await engine.transcribePcm(recording.samples, { vad: {} });
    const vad = result.vad;
    if (!vad) throw new Error('no VAD summary');
    expect(vad.speech).toHaveLength(3);
    expect(frameAgreement(recording.speech, vad.speech, recording.seconds)).toBeGreaterThanOrEqual(0.95);
    const spoken = recording.speech.reduce((sum, [s, e]) => sum + e - s, 0);
    expect(vad.skippedSeconds).toBeCloseTo(recording.seconds - vad.speechSeconds, 2);
    expect(Math.abs(vad.speechSeconds - spoken)).toBeLessThan(0.5);
  }, 120_000);

  it("keeps segment and word times in the recording's own timeline, not the joined speech's", async () => {
    const result = await engine.transcribePcm(recording.samples, { vad: {}, guards: { temperatureInc: 0 } });
    const words = result.segments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(0);
    const [firstSpeech] = recording.speech;
    // the joined audio starts with the first phrase at 0 s; in the recording it is 6 s in
    expect(result.segments[0].start).toBeGreaterThan(firstSpeech[0] - 0.5);
    expect(words[0].start).toBeGreaterThan(firstSpeech[0] - 0.5);
    for (const w of words) {
      expect(w.start).toBeLessThanOrEqual(w.end);
      expect(w.end).toBeLessThanOrEqual(recording.seconds);
    }
  }, 120_000);

  it('gives an empty transcript for pure silence and for pure noise, skipping all of it', async () => {
    for (const parts of [[{ silence: 8 }], [{ noise: 8, rms: 0.03, seed: 5 }]]) {
      const quiet = layout(parts);
      const result = await engine.transcribePcm(quiet.samples, { vad: {} });
      expect(result.text).toBe('');
      expect(result.segments).toEqual([]);
      expect(result.vad).toEqual({ speechSeconds: 0, skippedSeconds: 8, speech: [] });
    }
  }, 120_000);

  it('takes its thresholds from the job: a threshold no frame reaches finds no speech', async () => {
    const result = await engine.transcribePcm(recording.samples, { vad: { threshold: 0.999999 } });
    expect(result.vad?.speech).toEqual([]);
    expect(result.text).toBe('');
  }, 120_000);

  it('applies the no-speech guard per job: a window judged silent gives no text, with or without VAD', async () => {
    const quiet = layout([{ silence: 5 }]);
    const plain = await engine.transcribePcm(quiet.samples, { guards: { temperatureInc: 0 } });
    // the random model writes something for silence; a guard that calls every window silent drops it all
    expect(plain.text).not.toBe('');
    const dropAll = { noSpeech: 0, logprob: 0, temperatureInc: 0 };
    for (const vad of [undefined, { threshold: 0.01, minSpeechMs: 0 }]) {
      const guarded = await engine.transcribePcm(recording.samples, { guards: dropAll, vad });
      expect(guarded.segments).toEqual([]);
    }
  }, 120_000);

  it('refuses to translate on an English-only model', async () => {
    await expect(engine.transcribePcm(recording.samples, { task: 'translate' })).rejects.toMatchObject({
      code: 'bad_task',
      status: 400,
    });
  }, 60_000);
});
