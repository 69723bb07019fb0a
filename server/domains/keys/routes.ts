import { z } from 'zod';
import { defineRoute } from '../../http/define-route.js';
import { ApiKey, CreatedApiKey, CreateKeyBody, KeyIdParams, UpdateKeyBody } from './schema.js';

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

export const keyRoutes = { createApiKey, listApiKeys, updateApiKey, revokeApiKey };
