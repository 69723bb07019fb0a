// A route's params, query and body schemas as one tool input (and its response as the output schema), and a
// tool call's arguments split back into the three, so the route validates them exactly as it does over HTTP.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyRoute } from '../../../http/define-route.js';
import { badRequest } from '../../../http/errors.js';

type Shape = Record<string, z.ZodType>;
type JsonSchema = Record<string, unknown>;

/** The fields of an object schema, looking through optional, default and pipes; undefined for other schemas. */
export function objectShape(schema: z.ZodType | undefined): Shape | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof z.ZodObject) return current.shape as Shape;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap();
    else if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault) current = current.unwrap();
    else if (current instanceof z.ZodPipe) current = current.in;
    else return undefined;
  }
  return undefined;
}

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return rest;
}

/** Where each argument goes: a field of params, of query, or of the body (or the whole body as `body`). */
export type ArgumentPlan = { params: string[]; query: string[]; body: string[] | 'whole' | undefined };

export function planArguments(route: AnyRoute): { plan: ArgumentPlan; shape: Shape } {
  const params = objectShape(route.params) ?? {};
  const query = objectShape(route.query) ?? {};
  const bodySchema = route.raw ? undefined : route.body;
  const bodyShape = bodySchema ? objectShape(bodySchema) : undefined;
  const body: Shape = bodySchema && !bodyShape ? { body: bodySchema } : (bodyShape ?? {});
  const shape: Shape = {};
  for (const part of [params, query, body])
    for (const [name, field] of Object.entries(part)) {
      if (name in shape)
        throw new Error(
          `${route.method} ${route.path}: "${name}" is in more than one of params, query, body`,
        );
      shape[name] = field;
    }
  const plan: ArgumentPlan = {
    params: Object.keys(params),
    query: Object.keys(query),
    body: bodySchema ? (bodyShape ? Object.keys(bodyShape) : 'whole') : undefined,
  };
  return { plan, shape };
}

/** The tool's input schema: one object with every field the route reads. */
export function inputSchemaOf(shape: Shape): Tool['inputSchema'] {
  return jsonSchemaOf(z.object(shape), 'input') as Tool['inputSchema'];
}

/** What a failed call's structuredContent holds: the route's error body and the HTTP status it would have sent. */
const ErrorResult = {
  type: 'object',
  description: 'When isError is true: the error body the REST route answers, with its HTTP status',
  properties: {
    httpStatus: { type: 'integer' },
    error: { type: 'string', description: 'What went wrong and how to fix it' },
    issues: { type: 'array', items: { type: 'object' } },
    service: { type: 'string', description: 'On 403: the service the key lacks' },
    enabledServices: { type: 'array', items: { type: 'string' } },
  },
  required: ['httpStatus', 'error'],
};

/**
 * The tool's output schema, when the route answers a JSON object (MCP requires an object at the top): the
 * response, or the error body. Clients validate structuredContent against it even on a tool error, so both
 * shapes are declared, as OpenAPI declares the error body beside each response.
 */
export function outputSchemaOf(response: z.ZodType | undefined): Tool['outputSchema'] | undefined {
  if (!response) return undefined;
  const { $defs, ...schema } = jsonSchemaOf(response, 'output');
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const isObject =
    schema.type === 'object' || (branches?.length && branches.every((b) => b.type === 'object'));
  if (!isObject) return undefined;
  return {
    type: 'object',
    anyOf: [schema, ErrorResult],
    ...($defs ? { $defs } : {}),
  } as Tool['outputSchema'];
}

/** Splits a call's arguments as the plan says; an argument the route does not read is refused, naming it. */
export function splitArguments(args: Record<string, unknown>, plan: ArgumentPlan, route: AnyRoute) {
  const known = new Set([
    ...plan.params,
    ...plan.query,
    ...(Array.isArray(plan.body) ? plan.body : ['body']),
  ]);
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length)
    throw badRequest(`Unknown argument${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      issues: unknown.map((path) => ({ path, message: 'not an argument of this tool' })),
    });
  const pick = (names: string[]) =>
    Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, args[n]]));
  const params = Object.fromEntries(Object.entries(pick(plan.params)).map(([k, v]) => [k, String(v)]));
  let body: unknown;
  if (plan.body === 'whole') body = args.body;
  else if (plan.body) {
    const fields = pick(plan.body);
    // No body fields: send nothing when the route accepts that (its defaults apply), else an empty object.
    const acceptsNone = !route.raw && route.body?.safeParse(undefined).success;
    body = Object.keys(fields).length || !acceptsNone ? fields : undefined;
  }
  return { params, query: pick(plan.query), body };
}
