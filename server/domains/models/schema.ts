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
});

export const ImportedModel = z.object({ file: z.string(), path: z.string(), header: ModelHeader });

export const ActiveModel = InstalledModel.omit({ usable: true });
