/** Reads and checks the header of a legacy ggml Whisper model without loading it. */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { HttpError } from '../../http/errors.js';

export const GGML_MAGIC = 0x67676d6c;

export interface ModelHeader {
  nVocab: number;
  audioCtx: number;
  audioState: number;
  audioHead: number;
  audioLayer: number;
  textCtx: number;
  textState: number;
  textHead: number;
  textLayer: number;
  nMels: number;
  ftype: number;
}

/** A file named as a model that is missing or is not one: the caller's input is at fault (400). */
export class InvalidModelError extends HttpError {
  declare readonly code: 'model_missing' | 'model_invalid';
  constructor(code: 'model_missing' | 'model_invalid', message: string) {
    super(400, message, {}, {}, code);
    this.name = 'InvalidModelError';
  }
}

const FIELDS = [
  'nVocab',
  'audioCtx',
  'audioState',
  'audioHead',
  'audioLayer',
  'textCtx',
  'textState',
  'textHead',
  'textLayer',
  'nMels',
  'ftype',
] as const;

/** Throws InvalidModelError unless `path` starts like a ggml Whisper model with sane dimensions. */
export async function readModelHeader(path: string): Promise<ModelHeader> {
  const file = await openModelFile(path);
  try {
    const buf = Buffer.alloc(48);
    const { bytesRead } = await file.read(buf, 0, 48, 0);
    if (bytesRead < 48 || buf.readUInt32LE(0) !== GGML_MAGIC) {
      throw new InvalidModelError('model_invalid', `not a ggml Whisper model (bad magic): ${path}`);
    }
    const header = Object.fromEntries(
      FIELDS.map((f, i) => [f, buf.readInt32LE(4 + i * 4)]),
    ) as unknown as ModelHeader;
    const problem = headerProblem(header);
    if (problem)
      throw new InvalidModelError('model_invalid', `invalid ggml Whisper model ${path}: ${problem}`);
    // whisper.cpp loads a file that ends before its tensors as an "empty model for testing"; a cut download must not pass
    const { size } = await file.stat();
    const minimum = minimumModelBytes(header);
    if (size < minimum) {
      throw new InvalidModelError(
        'model_invalid',
        `ggml Whisper model ${path} is truncated: ${size} bytes, expected at least ${minimum}`,
      );
    }
    return header;
  } finally {
    await file.close();
  }
}

/**
 * Opens `path` for reading only if it is a regular file. O_NONBLOCK keeps a FIFO from blocking the open until a
 * writer appears; the type is checked on the opened descriptor, so nothing can be swapped in between.
 */
async function openModelFile(path: string): Promise<FileHandle> {
  if (path.includes('\0')) throw new InvalidModelError('model_missing', 'model path contains a NUL byte');
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (err: NodeJS.ErrnoException) => {
      throw new InvalidModelError('model_missing', `${openProblem(err.code)}: ${path}`);
    },
  );
  const info = await file.stat();
  if (info.isFile()) return file;
  await file.close();
  const kind = info.isDirectory() ? 'a directory' : 'not a regular file (a device, FIFO or socket)';
  throw new InvalidModelError('model_missing', `model path is ${kind}, not a model file: ${path}`);
}

function openProblem(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no model file at this path';
    case 'EACCES':
    case 'EPERM':
      return 'model file is not readable (permission denied)';
    case 'ELOOP':
      return 'model path has too many symbolic links (a symlink loop)';
    case 'ENOTDIR':
      return 'a part of the model path is not a directory';
    case 'ENAMETOOLONG':
      return 'model path is too long';
    default:
      return `model file cannot be opened (${code})`;
  }
}

/** A lower bound for the tensor data the header promises (biases ignored, quantized weights at 4 bits). */
export function minimumModelBytes(h: ModelHeader): number {
  const a = h.audioState;
  const x = h.textState;
  const f32 = a * h.audioCtx + x * h.textCtx;
  const weights =
    3 * h.nMels * a + 3 * a * a + h.audioLayer * 12 * a * a + x * h.nVocab + h.textLayer * 16 * x * x;
  const bits = h.ftype % 1000 === 0 ? 32 : h.ftype % 1000 === 1 ? 16 : 4;
  return f32 * 4 + (weights * bits) / 8;
}

function headerProblem(h: ModelHeader): string | undefined {
  const positive = FIELDS.filter((f) => f !== 'ftype').find((f) => !(h[f] > 0 && h[f] <= 1 << 20));
  if (positive) return `${positive} = ${h[positive]} is out of range`;
  if (h.audioState % h.audioHead !== 0 || h.textState % h.textHead !== 0)
    return 'state size not divisible by heads';
  if (h.ftype < 0 || h.ftype % 1000 > 30) return `unknown ftype ${h.ftype}`;
  return undefined;
}
