/** The JSON shapes of the model manager's routes. */
import { z } from 'zod';

export const ModelHeader = z.object({
  nVocab: z.number(),
  audioCtx: z.number(),
  audioState: z.number(),
  audioHead: z.number(),
  audioLayer: z.number(),
  textCtx: z.number(),
  textState: z.number(),
  textHead: z.number(),
  textLayer: z.number(),
  nMels: z.number(),
  ftype: z.number(),
});

export const ModelDownload = z.object({
  name: z.string(),
  file: z.string(),
  status: z.enum(['downloading', 'completed', 'failed', 'cancelled']),
  receivedBytes: z.number(),
  totalBytes: z.number().optional(),
  percent: z.number().describe('0–100'),
  error: z.string().optional(),
  startedAt: z.string(),
});

export const InstalledModel = z.object({
  file: z.string(),
  path: z.string(),
  bytes: z.number(),
  name: z.string().optional().describe('Catalog name when the file is a standard model'),
  problem: z.string().optional().describe('Why the file cannot be used, when it cannot'),
  usable: z.boolean(),
  active: z.boolean(),
});

/** Where transcriptions run (server/engines/whisper/device.ts). */
export const TranscriptionDevice = z.object({
  kind: z.enum(['cpu', 'gpu']),
  backend: z.string().describe('CPU, CUDA, Vulkan or Metal'),
  name: z.string().describe("The GPU's name, or the CPU's model name"),
  label: z.string().describe('"GPU: NVIDIA GeForce RTX 4070 (CUDA)", "CPU: 8 threads, AVX2"'),
  preference: z
    .enum(['auto', 'cpu', 'gpu'])
    .describe('The setting it was started with (settings whisperDevice)'),
  fallback: z.string().nullable().describe('Why the GPU is not used although it was asked for, else null'),
  skipped: z
    .array(z.object({ module: z.string(), reason: z.string() }))
    .describe(
      "GPU modules beside the worker that did not load and the loader's reason (a library of theirs missing, such as CUDA's runtime without its add-on); empty with a CPU preference, which opens none",
    ),
});

export const ModelsOverview = z.object({
  catalog: z.array(
    z.object({
      name: z.string(),
      file: z.string(),
      bytes: z.number(),
      sha256: z.string().optional(),
      sha1: z.string().optional(),
      multilingual: z.boolean(),
      installed: z.boolean(),
    }),
  ),
  installed: z.array(InstalledModel),
  active: z
    .object({ file: z.string(), path: z.string(), source: z.enum(['whisper-model flag', 'model manager']) })
    .nullable(),
  downloads: z.array(ModelDownload),
  device: TranscriptionDevice.nullable().describe(
    'The device the Whisper worker runs on; null until it has loaded a model once (the first transcription, or start-up with a model)',
  ),
  gpuAvailable: z
    .boolean()
    .describe('A GPU backend (CUDA, Vulkan, Metal) is built and, once the worker ran, found a GPU'),
});

export const ImportedModel = z.object({ file: z.string(), path: z.string(), header: ModelHeader });

export const ActiveModel = InstalledModel.omit({ usable: true });
