/** The model manager's API: catalog, installed and active models; downloads, imports and the active choice (session only). */
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.js';

const NameParams = z.object({ name: z.string().min(1).max(100) });

export const listModels = defineRoute({
  method: 'GET',
  path: '/api/v1/models',
  auth: ['session', 'key'],
  service: 'transcription',
  summary: 'Whisper models: the catalog, what is installed, the active one and downloads in progress',
  tool: 'models_list',
  handler: (_input, { transcription }) => transcription.models.overview(),
});

export const downloadModel = defineRoute({
  method: 'POST',
  path: '/api/v1/models/:name/download',
  auth: 'session',
  params: NameParams,
  status: 202,
  summary:
    'Start downloading a catalog model (e.g. tiny.en); follow it at GET /api/v1/models/downloads/:name',
  handler: ({ params }, { transcription }) => transcription.models.startDownload(params.name),
});

export const getModelDownload = defineRoute({
  method: 'GET',
  path: '/api/v1/models/downloads/:name',
  auth: ['session', 'key'],
  service: 'transcription',
  params: NameParams,
  summary: 'Progress of a model download: status downloading|completed|failed, bytes and percent',
  tool: 'models_download_status',
  handler: ({ params }, { transcription }) => transcription.models.download(params.name),
});

export const importModel = defineRoute({
  method: 'POST',
  path: '/api/v1/models/import',
  auth: 'session',
  body: z.strictObject({ path: z.string().min(1).max(4096), file: z.string().max(200).optional() }),
  status: 201,
  summary: 'Install a ggml model file from a path on this machine (copied into the data directory)',
  handler: ({ body }, { transcription }) => transcription.models.importFrom(body.path, body.file),
});

export const setActiveModel = defineRoute({
  method: 'PUT',
  path: '/api/v1/models/active',
  auth: 'session',
  body: z.strictObject({
    name: z.string().min(1).max(200).describe('Catalog name (tiny.en) or installed file name'),
  }),
  summary: 'Choose the installed model that runs transcriptions from now on (also over --whisper-model)',
  handler: ({ body }, { transcription }) => transcription.models.setActive(body.name),
});

export const modelRoutes = { listModels, downloadModel, getModelDownload, importModel, setActiveModel };
