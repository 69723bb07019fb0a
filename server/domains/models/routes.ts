/** The model manager's API: catalog, installed and active models; downloads, imports and the active choice (session only). */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import { ActiveModel, ImportedModel, ModelDownload, ModelsOverview } from './schema.js';

const NameParams = z.object({ name: z.string().min(1).max(100) });

export const listModels = defineRoute({
  method: 'GET',
  path: '/api/v1/models',
  auth: ['session', 'key'],
  service: 'transcription',
  response: ModelsOverview,
  summary: 'Whisper models: the catalog, what is installed, the active one and downloads in progress',
  tool: 'models_list',
  handler: (_input, { models }) => models.overview(),
});

const DownloadSourceBody = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http or https URL' })
      .max(2048)
      .optional()
      .describe('Where to fetch the file: a mirror of a catalog model, or a model outside the catalog'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits')
      .optional()
      .describe('For a model outside the catalog: the hash the file must have'),
  })
  .optional();

export const downloadModel = defineRoute({
  method: 'POST',
  path: '/api/v1/models/:name/download',
  auth: 'instanceOwner',
  params: NameParams,
  body: DownloadSourceBody,
  status: 202,
  response: ModelDownload,
  summary:
    'Start downloading a catalog model (e.g. tiny.en); follow it at GET /api/v1/models/downloads/:name',
  description:
    'Optional body `{ url, sha256 }`: `url` fetches a catalog model from a mirror (still checked against the catalog), or a model outside the catalog, installed as ggml-<name>.bin and checked against `sha256` when given. A dropped connection resumes where it stopped. Only the owner of the instance.',
  handler: ({ params, body }, { models }) => models.startDownload(params.name, body),
});

export const cancelModelDownload = defineRoute({
  method: 'DELETE',
  path: '/api/v1/models/downloads/:name',
  auth: 'instanceOwner',
  params: NameParams,
  response: ModelDownload,
  summary: 'Cancel a running model download and remove what it fetched (status cancelled)',
  handler: ({ params }, { models }) => models.cancelDownload(params.name),
});

export const deleteModel = defineRoute({
  method: 'DELETE',
  path: '/api/v1/models/:name',
  auth: 'instanceOwner',
  params: NameParams,
  summary: 'Delete an installed model file (not the active one: 409); the owner of the instance only',
  handler: async ({ params }, { models }) => {
    await models.removeInstalled(params.name);
  },
});

export const getModelDownload = defineRoute({
  method: 'GET',
  path: '/api/v1/models/downloads/:name',
  auth: ['session', 'key'],
  service: 'transcription',
  params: NameParams,
  response: ModelDownload,
  summary: 'Progress of a model download: status downloading|completed|failed|cancelled, bytes and percent',
  tool: 'models_download_status',
  handler: ({ params }, { models }) => models.download(params.name),
});

export const importModel = defineRoute({
  method: 'POST',
  path: '/api/v1/models/import',
  auth: 'instanceOwner',
  body: z.strictObject({
    path: z
      .string()
      .min(1)
      .max(4096)
      .refine(isAbsolute, 'path must be absolute (the server does not resolve it against its own folder)'),
    file: z.string().max(200).optional(),
  }),
  status: 201,
  response: ImportedModel,
  summary: 'Install a ggml model file from a path on this machine (copied into the data directory)',
  handler: ({ body }, { models }) => models.importFrom(body.path, body.file),
});

export const setActiveModel = defineRoute({
  method: 'PUT',
  path: '/api/v1/models/active',
  auth: 'instanceOwner',
  body: z.strictObject({
    name: z.string().min(1).max(200).describe('Catalog name (tiny.en) or installed file name'),
  }),
  response: ActiveModel,
  summary: 'Choose the installed model that runs transcriptions from now on (also over --whisper-model)',
  handler: ({ body }, { models }) => models.setActive(body.name),
});

export const modelRoutes = {
  listModels,
  downloadModel,
  cancelModelDownload,
  deleteModel,
  getModelDownload,
  importModel,
  setActiveModel,
};
