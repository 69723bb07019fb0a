/**
 * Voice activity detection, side by side in one run: a 10-minute recording that is 80 % silence (espeak-ng
 * sentences between stretches of silence and quiet noise) transcribed by the same engine with VAD (Silero VAD v5,
 * whisper-cli's thresholds) and without, alternating; and how well the speech VAD found matches where it was put.
 * Usage: npx tsx bench/vad.ts [--preset tiny.en|micro|base] [--runs N] [--minutes M] [--fallback] [--timestamps]
 * A random-weight model fails whisper's log-probability check on every window, so with the temperature fallback on
 * (the default for transcripts) each window is decoded six times; the bench decodes once per window (greedy) in
 * both arms unless --fallback is given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateModel, type ModelPreset } from '../scripts/lib/ggml-model.js';
import { frameAgreement, layout, type Part } from '../scripts/lib/speech-layout.js';
import type { EngineResult } from '../server/engines/whisper/types.js';
import { createWhisperEngine } from '../server/engines/whisper/whisper-engine.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const preset = flag('--preset', 'tiny.en') as ModelPreset;
const runs = Number(flag('--runs', '1'));
const minutes = Number(flag('--minutes', '10'));
const guards = args.includes('--fallback') ? {} : { temperatureInc: 0 };
// A random-weight model's timestamps are random, so whisper.cpp would advance a few seconds per pass instead of the
// 30 s a real model covers in continuous speech; without timestamp tokens every pass covers a whole window in both
// arms (--timestamps keeps them).
const noTimestamps = !args.includes('--timestamps');

const SENTENCES = [
  'The committee will meet again on Thursday to review the budget for next year',
  'Please remember to send the signed contract back before the end of the month',
  'We measured the temperature every hour and wrote the results in the notebook',
  'The train to the city leaves from platform four at twenty past nine',
  'She said the new design looks cleaner but the buttons are a little too small',
  'Our first interview starts at ten and the second one right after lunch',
];

/** Speech for a fifth of the length, one sentence at a time, each after silence or quiet hiss. */
function recording() {
  const parts: Part[] = [];
  const clip = layout(SENTENCES.map((say) => ({ say })));
  const speechSeconds = clip.speech.reduce((sum, [s, e]) => sum + e - s, 0) / SENTENCES.length;
  const count = Math.round((minutes * 60 * 0.2) / speechSeconds);
  const gap = (minutes * 60 * 0.8) / count;
  for (let i = 0; i < count; i++) {
    parts.push(i % 3 === 2 ? { noise: gap, rms: 0.01, seed: i + 1 } : { silence: gap });
    parts.push({ say: SENTENCES[i % SENTENCES.length] });
  }
  return layout(parts);
}

const dir = mkdtempSync(join(tmpdir(), 'folio-bench-vad-'));
try {
  const model = join(dir, `${preset}.bin`);
  generateModel(model, { preset, seed: 3 });
  const audio = recording();
  const spoken = audio.speech.reduce((sum, [s, e]) => sum + e - s, 0);
  console.log(
    `recording: ${(audio.seconds / 60).toFixed(1)} min, ${audio.speech.length} sentences, ${((100 * spoken) / audio.seconds).toFixed(0)} % speech; model: random ${preset}, ${args.includes('--fallback') ? 'temperature fallback on' : 'greedy, no fallback'}, ${noTimestamps ? 'whole windows (no timestamp tokens)' : 'timestamps'}`,
  );
  const engine = createWhisperEngine({ modelPath: model, threads: 2, tmpDir: join(dir, 'tmp') });
  await engine.ready();
  const times: Record<'with VAD' | 'without VAD', number[]> = { 'with VAD': [], 'without VAD': [] };
  let last: EngineResult | undefined;
  for (let run = 0; run < runs; run++) {
    for (const name of ['with VAD', 'without VAD'] as const) {
      const started = performance.now();
      const result = await engine.transcribePcm(
        audio.samples,
        name === 'with VAD' ? { vad: {}, guards, noTimestamps } : { guards, noTimestamps },
      );
      times[name].push(performance.now() - started);
      if (result.vad) last = result;
      console.log(
        `  run ${run + 1} ${name}: ${(times[name].at(-1)! / 1000).toFixed(1)} s, ${result.segments.length} segments`,
      );
    }
  }
  // VAD's own pass: a threshold no frame reaches, so Whisper never runs
  const vadStarted = performance.now();
  await engine.transcribePcm(audio.samples, { vad: { threshold: 0.999999 } });
  const vadOnly = performance.now() - vadStarted;
  await engine.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const withVad = median(times['with VAD']);
  const without = median(times['without VAD']);
  const vad = last?.vad;
  console.log('\n| | time (median) | audio sent to Whisper |');
  console.log('|---|---|---|');
  console.log(`| without VAD | ${(without / 1000).toFixed(1)} s | ${audio.seconds.toFixed(0)} s |`);
  console.log(`| with VAD | ${(withVad / 1000).toFixed(1)} s | ${vad?.speechSeconds.toFixed(0)} s |`);
  console.log(`| VAD's pass alone (no speech kept) | ${(vadOnly / 1000).toFixed(1)} s | 0 s |`);
  console.log(`\nspeed-up: ${(without / withVad).toFixed(1)}×`);
  if (vad)
    console.log(
      `VAD: ${vad.speech.length} stretches, ${vad.skippedSeconds.toFixed(0)} s skipped, frames agreeing with the layout: ${(100 * frameAgreement(audio.speech, vad.speech, audio.seconds)).toFixed(1)} %`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
