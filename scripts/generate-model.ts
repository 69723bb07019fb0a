/**
 * Writes a random-weight ggml Whisper model (scripts/lib/ggml-model.ts).
 * Usage: tsx scripts/generate-model.ts <out> --preset micro|tiny.en|tiny|base|small|medium|large-v3|large-v3-turbo [--seed N]
 */
import { generateModel, type ModelPreset, modelPresets } from './lib/ggml-model.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const out = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const preset = (flag('--preset') ?? 'micro') as ModelPreset;
if (!out || !(preset in modelPresets)) {
  console.error(
    `usage: tsx scripts/generate-model.ts <out> --preset ${Object.keys(modelPresets).join('|')} [--seed N]`,
  );
  process.exit(2);
}
const started = Date.now();
const bytes = generateModel(out, { preset, seed: Number(flag('--seed') ?? 1) });
console.log(`wrote ${out}: ${preset}, ${(bytes / 1e6).toFixed(1)} MB in ${Date.now() - started} ms`);
