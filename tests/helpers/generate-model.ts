/** Test fixture: a random-weight Whisper model (see scripts/lib/ggml-model.ts). */
export { generateModel, type ModelPreset, modelPresets } from '../../scripts/lib/ggml-model.js';
