/**
 * Writes whisper.cpp's VAD file from the Silero VAD v5 ONNX (scripts/lib/silero-vad.ts); `npm run build:whisper`
 * runs the same conversion into build/whisper/.
 * Usage: tsx scripts/convert-silero-vad.ts [out] (default build/whisper/silero-vad-v5.ggml)
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertSileroVad, sileroOnnxPath, VAD_MODEL_FILE } from './lib/silero-vad.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ?? join(root, 'build/whisper', VAD_MODEL_FILE);
const bytes = convertSileroVad(sileroOnnxPath(root), out);
console.log(`wrote ${out}: Silero VAD v5 for whisper.cpp, ${(bytes / 1e6).toFixed(2)} MB`);
