/** Test fixture: a random-weight Whisper model (see scripts/lib/ggml-model.ts). */
export { generateModel, modelPresets, type ModelPreset } from '../../scripts/lib/ggml-model.js';
