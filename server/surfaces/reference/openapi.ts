// OpenAPI 3.1 from the route table: the same zod schemas the server validates with, so they cannot drift.
import { z } from 'zod';
import { credentialsOf } from '../../http/define-route.js';
import type { NamedRoute } from '../capability.js';

type JsonSchema = Record<string, unknown>;

const ErrorBody = z.object({
  error: z.string().describe('What went wrong and how to fix it'),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  service: z.string().optional().describe('On 403 for a key: the service the key lacks'),
  enabledServices: z.array(z.string()).optional().describe('On 403 for a key: what the key is enabled for'),
});

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return rest;
};

export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}');

const SECURITY: Record<string, JsonSchema[]> = {
  session: [{ session: [] }],
  key: [{ apiKey: [] }],
  grant: [{ grant: [] }],
  workspaceOwner: [{ session: [] }],
  instanceOwner: [{ session: [] }],
  public: [{}],
};

function parameters(route: NamedRoute['route']): JsonSchema[] {
  const fromObject = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!(schema instanceof z.ZodObject)) return [];
    return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
      name,
      in: where,
      required: where === 'path' || !field.safeParse(undefined).success,
      schema: jsonSchema(field, 'input'),
      ...(field.description && { description: field.description }),
    }));
  };
  const declared = fromObject(route.params, 'path');
  const pathNames = [...route.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]);
  const undeclared = pathNames
    .filter((n) => !declared.some((p) => p.name === n))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...declared, ...undeclared, ...fromObject(route.query, 'query')];
}

function operation({ name, route, capability }: NamedRoute): JsonSchema {
  const credentials = credentialsOf(route);
  const status = String(route.status ?? (route.response ? 200 : 204));
  const content = route.response
    ? { 'application/json': { schema: jsonSchema(route.response, 'output') } }
    : route.produces
      ? { [route.produces]: { schema: { type: 'string', format: 'binary' } } }
      : undefined;
  return {
    operationId: name,
    summary: route.summary,
    ...(route.description && { description: route.description }),
    tags: [route.tag ?? capability],
    security: credentials.flatMap((c) => SECURITY[c]),
    'x-folio-credentials': credentials,
    ...(route.service && { 'x-folio-service': route.service }),
    parameters: parameters(route),
    ...(route.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
      },
    }),
    ...(route.raw &&
      route.requestContentType && {
        requestBody: { required: true, content: { [route.requestContentType]: { schema: {} } } },
      }),
    responses: {
      [status]: { description: 'Success', ...(content && { content }) },
      default: {
        description: 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

export function buildOpenApi(routes: NamedRoute[], serverUrl: string, version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const named of routes.filter((r) => !r.route.hidden)) {
    const path = openApiPath(named.route.path);
    paths[path] ??= {};
    paths[path][named.route.method.toLowerCase()] = operation(named);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Folio API',
      version,
      description:
        'Local-first assets, transcripts and published pages. Every request resolves to exactly one workspace.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorBody, 'output') },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key `fk_...`, scoped to one workspace and to services',
        },
        grant: {
          type: 'http',
          scheme: 'bearer',
          description: 'Short-lived single-use grant (`fg_...` uploads)',
        },
        session: { type: 'apiKey', in: 'cookie', name: 'folio_session', description: 'Dashboard session' },
      },
    },
  };
}
