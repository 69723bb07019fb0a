import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import { SERVICE_NAMES } from '../../http/viewer.js';
import { ApiKey, CreatedApiKey, CreateKeyBody, KeyIdParams, ServiceList, UpdateKeyBody } from './schema.js';

export const createApiKey = defineRoute({
  method: 'POST',
  path: '/api/v1/api-keys',
  auth: 'session',
  body: CreateKeyBody,
  response: CreatedApiKey,
  status: 201,
  summary:
    'Create an API key for the current workspace (session only). The response carries the full secret, once',
  handler: ({ workspace, body }, { keys }) => keys.create(workspace.id, body),
});

export const listApiKeys = defineRoute({
  method: 'GET',
  path: '/api/v1/api-keys',
  auth: 'session',
  response: z.object({ data: z.array(ApiKey) }),
  summary: 'List the workspace’s API keys by prefix (secrets are never listed)',
  handler: async ({ workspace }, { keys }) => ({ data: await keys.list(workspace.id) }),
});

export const updateApiKey = defineRoute({
  method: 'PATCH',
  path: '/api/v1/api-keys/:id',
  auth: 'session',
  params: KeyIdParams,
  body: UpdateKeyBody,
  response: ApiKey,
  summary: 'Rename a key or change its services; a removed service is refused on the key’s next call',
  handler: ({ workspace, params, body }, { keys }) => keys.update(workspace.id, params.id, body),
});

export const revokeApiKey = defineRoute({
  method: 'DELETE',
  path: '/api/v1/api-keys/:id',
  auth: 'session',
  params: KeyIdParams,
  summary: 'Revoke a key; its next request gets 401',
  handler: async ({ workspace, params }, { keys }) => {
    await keys.revoke(workspace.id, params.id);
  },
});

/** What each service a key can be scoped to covers, as GET /api/v1/services lists them. */
const DESCRIPTIONS: Record<(typeof SERVICE_NAMES)[number], string> = {
  assets: 'Uploads, asset records, client-upload grants and public serve URLs (/img, /f, /audio)',
  transcription:
    'Local Whisper transcription, transcripts, chunked upload of long audio, OpenAI-compatible endpoint',
  realtime: 'Minting live voice sessions streamed to the local Whisper engine',
  diagrams: 'Publishing and serving agent-authored diagrams',
  artifacts: 'Validating, publishing and serving interactive pages built from the component catalog',
  charts: 'Previewing, publishing and serving data-driven charts',
};

export const listServices = defineRoute({
  method: 'GET',
  path: '/api/v1/services',
  auth: ['session', 'key'],
  response: ServiceList,
  summary: 'The services an API key can be scoped to (any key may call this)',
  tool: 'services_list',
  tag: 'account',
  handler: () => ({ data: SERVICE_NAMES.map((name) => ({ name, description: DESCRIPTIONS[name] })) }),
});

export const keyRoutes = { createApiKey, listApiKeys, updateApiKey, revokeApiKey, listServices };
