import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import { reply } from '../../http/reply.js';

export const openApiDocument = defineRoute({
  method: 'GET',
  path: '/api/v1/openapi.json',
  auth: 'public',
  produces: 'application/json',
  summary: 'This API as an OpenAPI 3.1 document',
  tag: 'reference',
  handler: ({ origin }, { reference }) => reference.openapi(origin),
});

export const llmsTxt = defineRoute({
  method: 'GET',
  path: '/llms.txt',
  auth: 'public',
  produces: 'text/markdown',
  summary: 'The API reference for agents (llmstxt.org)',
  tag: 'reference',
  handler: ({ origin }, { reference }) => reply.text(reference.llms(origin), 'text/markdown; charset=utf-8'),
});

export const llmsFullTxt = defineRoute({
  method: 'GET',
  path: '/llms-full.txt',
  auth: 'public',
  produces: 'text/markdown',
  summary: 'The API reference for agents with every schema inline',
  tag: 'reference',
  handler: ({ origin }, { reference }) =>
    reply.text(reference.llmsFull(origin), 'text/markdown; charset=utf-8'),
});

/** Which backend and node answered: behind a proxy, which of the nodes that is. */
const NodeStatus = z.object({ ok: z.literal(true), backend: z.string(), node: z.string() });

export const health = defineRoute({
  method: 'GET',
  path: '/health',
  auth: 'public',
  response: NodeStatus,
  summary: 'Liveness: answers while the server serves, naming its storage backend and node',
  tag: 'reference',
  handler: (_input, { node }) => node.live(),
});

export const ready = defineRoute({
  method: 'GET',
  path: '/ready',
  auth: 'public',
  summary:
    'Readiness for a proxy: 200 while the store answers, 503 when it does not or the server is closing',
  response: NodeStatus,
  tag: 'reference',
  handler: (_input, { node }) => node.ready(),
});

export const referenceRoutes = { openApiDocument, llmsTxt, llmsFullTxt, health, ready };
