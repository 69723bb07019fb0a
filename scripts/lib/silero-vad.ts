/**
 * Converts Silero VAD v5 (the MIT-licensed ONNX that @ricky0123/vad-web ships) into the ggml file whisper.cpp
 * 1.9.1's VAD loads (`whisper_vad_init_with_params` in its src/whisper.cpp). The layout is what its
 * models/convert-silero-vad-to-ggml.py writes from the PyTorch weights: a header of hyperparameters, then each
 * tensor as n_dims, name length, type (0 f32, 1 f16), its dimensions fastest first, its name and its data; the
 * convolution weights as f16, the rest f32, in the order that script uses. The ONNX holds the same PyTorch tensors
 * as constants inside the `If` branch taken for 16 kHz (`sr == 16000`); the other branch is the 8 kHz model.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { onnx as OnnxTypes } from 'onnx-proto';

const require = createRequire(import.meta.url);
const { onnx } = require('onnx-proto') as { onnx: typeof OnnxTypes };

/** The file build/whisper/ holds beside the worker (a name the build's clean-up of stale ggml modules leaves alone). */
export const VAD_MODEL_FILE = 'silero-vad-v5.ggml';

export function sileroOnnxPath(root: string): string {
  return join(root, 'node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx');
}

const GGML_MAGIC = 0x67676d6c;
const FLOAT = 1; // onnx.TensorProto.DataType.FLOAT

/** whisper.cpp's tensor names, in its converter's order; `f16` for the convolution weights. */
const TENSORS: Array<{ name: string; f16: boolean }> = [
  ...[0, 1, 2, 3].flatMap((i) => [
    { name: `encoder.${i}.reparam_conv.weight`, f16: true },
    { name: `encoder.${i}.reparam_conv.bias`, f16: false },
  ]),
  { name: 'decoder.rnn.weight_ih', f16: false },
  { name: 'decoder.rnn.weight_hh', f16: false },
  { name: 'decoder.rnn.bias_ih', f16: false },
  { name: 'decoder.rnn.bias_hh', f16: false },
  { name: 'decoder.decoder.2.weight', f16: true },
  { name: 'decoder.decoder.2.bias', f16: false },
  { name: 'stft.forward_basis_buffer', f16: true },
];

/** The shapes the 16 kHz model has (PyTorch order); anything else is not the model whisper.cpp's graph expects. */
const SHAPES: Record<string, number[]> = {
  'stft.forward_basis_buffer': [258, 1, 256],
  'encoder.0.reparam_conv.weight': [128, 129, 3],
  'encoder.1.reparam_conv.weight': [64, 128, 3],
  'encoder.2.reparam_conv.weight': [64, 64, 3],
  'encoder.3.reparam_conv.weight': [128, 64, 3],
  'decoder.rnn.weight_ih': [512, 128],
  'decoder.rnn.weight_hh': [512, 128],
  'decoder.decoder.2.weight': [1, 128, 1],
};

type Found = { dims: number[]; data: Float32Array };

/** The float constants of the graph's 16 kHz branch, by their PyTorch name. */
export function readSileroWeights(onnxFile: Buffer): Map<string, Found> {
  const model = onnx.ModelProto.decode(onnxFile);
  const branch = model.graph?.node
    ?.find((n) => n.opType === 'If')
    ?.attribute?.find((a) => a.name === 'then_branch')?.g;
  if (!branch?.node) throw new Error('not Silero VAD v5: no If node with a 16 kHz branch');
  const found = new Map<string, Found>();
  for (const node of branch.node) {
    if (node.opType !== 'Constant') continue;
    const output = node.output?.[0] ?? '';
    const name = TENSORS.find((t) => output.endsWith(`__${t.name}`))?.name;
    const tensor = node.attribute?.find((a) => a.name === 'value')?.t;
    if (!name || !tensor) continue;
    if (tensor.dataType !== FLOAT || !tensor.rawData?.length)
      throw new Error(`${name}: expected raw float32 data`);
    const raw = tensor.rawData;
    const data = new Float32Array(raw.byteLength / 4);
    new Uint8Array(data.buffer).set(raw); // copied: raw may not be 4-byte aligned within the file's buffer
    found.set(name, { dims: (tensor.dims ?? []).map(Number), data });
  }
  for (const { name } of TENSORS) {
    const tensor = found.get(name);
    if (!tensor) throw new Error(`not Silero VAD v5: ${name} missing from its 16 kHz branch`);
    const want = SHAPES[name];
    if (want && tensor.dims.join('x') !== want.join('x'))
      throw new Error(`${name} is ${tensor.dims.join('x')}, whisper.cpp expects ${want.join('x')}`);
  }
  return found;
}

const int32 = (...values: number[]) => Buffer.from(new Int32Array(values).buffer);

/** whisper.cpp's VAD file from the ONNX weights (header as convert-silero-vad-to-ggml.py writes it). */
export function sileroToGgml(weights: Map<string, Found>): Buffer {
  const type = Buffer.from('silero-16k');
  const parts: Buffer[] = [
    int32(GGML_MAGIC, type.length),
    type,
    int32(5, 0, 0), // Silero's version, only logged by whisper.cpp: the ONNX names v5, not its patch release
    int32(512, 64), // window and context samples at 16 kHz
    int32(4), // encoder layers, then in, out channels and kernel size of each
    int32(129, 128, 3, 128, 64, 3, 64, 64, 3, 64, 128, 3),
    int32(128, 128), // LSTM input and hidden size
    int32(128, 1), // final convolution in and out
  ];
  for (const { name, f16 } of TENSORS) {
    const { dims, data } = weights.get(name) as Found;
    // the STFT basis keeps its three dimensions; the others drop those of size 1 (PyTorch's squeeze), as there
    const kept = name.startsWith('stft.') ? dims : dims.filter((d) => d !== 1);
    const shape = kept.length ? [...kept].reverse() : [1];
    const key = Buffer.from(`_model.${name}`);
    const values = f16 ? new Float16Array(data) : data;
    parts.push(int32(shape.length, key.length, f16 ? 1 : 0, ...shape), key, Buffer.from(values.buffer));
  }
  return Buffer.concat(parts);
}

/** Reads the ONNX and writes whisper.cpp's VAD file; returns its size in bytes. */
export function convertSileroVad(onnxPath: string, outPath: string): number {
  const ggml = sileroToGgml(readSileroWeights(readFileSync(onnxPath)));
  writeFileSync(outPath, ggml);
  return ggml.length;
}

/** build/whisper/silero-vad-v5.ggml (or `dir`'s), converted again only when the ONNX is newer; returns its path. */
export function installVadModel(root: string, dir: string): string {
  const out = join(dir, VAD_MODEL_FILE);
  const onnxPath = sileroOnnxPath(root);
  if (!existsSync(out) || statSync(out).mtimeMs < statSync(onnxPath).mtimeMs) convertSileroVad(onnxPath, out);
  return out;
}
