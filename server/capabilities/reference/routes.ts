import { defineRoute } from '../../http/define-route.js';
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

export const health = defineRoute({
  method: 'GET',
  path: '/health',
  auth: 'public',
  summary: 'Liveness: answers while the server serves',
  tag: 'reference',
  handler: () => ({ ok: true }),
});

export const referenceRoutes = { openApiDocument, llmsTxt, llmsFullTxt, health };
