// A hand-written tool, for work that is more than one route call (upload from bytes or a local file, transcribe
// and wait). It is declared like a route (key only, its service, a zod input and response) and runs through
// invokeRoute as one, so authentication, service scoping, validation and errors are exactly those of a route.
import type { z } from 'zod';
import type { Config } from '../../../config.js';
import type { AssetService } from '../../../domains/assets/service.js';
import type { TranscriptService } from '../../../domains/transcripts/service.js';
import type { ChunkedUploads } from '../../../domains/uploads/chunked/service.js';
import type { UploadService } from '../../../domains/uploads/service.js';
import type { AnyRoute, Method, RouteInput } from '../../../http/define-route.js';
import { invokeRoute } from '../../../http/invoke-route.js';
import type { Reply } from '../../../http/reply.js';
import type { ServiceName, Viewer, WorkspaceRef } from '../../../http/viewer.js';
import { annotationsFor, type McpTool, type ToolCall } from './tool.js';
import { inputSchemaOf, outputSchemaOf } from './tool-schemas.js';

export type ToolInput<A> = {
  workspace: WorkspaceRef;
  viewer: Extract<Viewer, { kind: 'key' }>;
  origin: string;
  args: A;
};

/**
 * What a hand-written tool's `run` gets: the part of the route handlers' deps (server/deps.ts, RouteDeps) the tools
 * use. Named here, not imported: the MCP service is one of those deps, so naming them would import in a loop.
 */
export type ToolDeps = {
  config: Config;
  assets: AssetService;
  uploads: UploadService;
  chunkedUploads: ChunkedUploads;
  transcripts: TranscriptService;
};

export type ToolSpec<I extends z.ZodObject, R extends z.ZodType> = {
  name: string;
  service: ServiceName;
  /** For the hints clients show before running it (read-only, destructive ...). */
  method: Method;
  summary: string;
  description?: string;
  input: I;
  response: R;
  /** Answers like a route handler: the response's shape, or a reply (a failed transcript keeps its status). */
  run(input: ToolInput<z.output<I>>, deps: ToolDeps, call: ToolCall): Promise<z.input<R> | Reply>;
};

export function defineTool<I extends z.ZodObject, R extends z.ZodType>(spec: ToolSpec<I, R>): McpTool {
  const outputSchema = outputSchemaOf(spec.response);
  const declared = {
    method: 'POST' as const,
    path: `/mcp#${spec.name}`,
    auth: 'key' as const,
    service: spec.service,
    body: spec.input,
    response: spec.response,
    tool: spec.name,
    summary: spec.summary,
  };
  return {
    name: spec.name,
    service: spec.service,
    definition: {
      name: spec.name,
      title: spec.summary,
      description: [spec.summary, spec.description].filter(Boolean).join('\n\n'),
      inputSchema: inputSchemaOf(spec.input.shape),
      ...(outputSchema && { outputSchema }),
      annotations: annotationsFor(spec.method),
    },
    call(args, call) {
      const route: AnyRoute = {
        ...declared,
        handler: ({ workspace, viewer, origin, body }: RouteInput<'key', undefined, undefined, I>, deps) =>
          spec.run({ workspace, viewer, origin, args: body as z.output<I> }, deps, call),
      };
      return invokeRoute(
        route,
        {
          credentials: { bearer: call.bearer },
          params: {},
          query: {},
          readBody: async () => args,
          origin: call.origin,
        },
        call.deps,
      );
    },
  };
}
