// A route is data: method, path, who may call it, its service, its schemas and its handler.
// mount-routes.ts builds every chain from these; reference/ builds OpenAPI and llms.txt from the same list.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Services } from '../services.js';
import type { Credential, ServiceName, Viewer, WorkspaceRef } from './viewer.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteInput<P, Q, B> = {
  workspace: WorkspaceRef;
  viewer: Viewer;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** This server's own origin for absolute URLs: `publicUrl` when hosted, else from the host-guarded Host. */
  origin: string;
  ctx: Context;
};

export type RouteDefinition<P = undefined, Q = undefined, B = undefined> = {
  method: Method;
  path: string;
  auth: Credential | Credential[];
  /** The service a key must be enabled for; sessions have every service. */
  service?: ServiceName;
  /** For `grant` routes: which kind of grant (upload, realtime ...). */
  grantPurpose?: string;
  /** CORS headers the route answers with, set before anything can fail so its errors are readable too. */
  cors?: Record<string, string>;
  /** A signed-in session that is not yet approved may call it (GET /me, sign-out). */
  allowUnapproved?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The handler reads `ctx.req` itself (multipart, raw bytes): no JSON body parsing. */
  rawBody?: boolean;
  /** Documents a raw request body in the reference, e.g. `multipart/form-data`. */
  requestContentType?: string;
  response?: Schema;
  /** Content type of a non-JSON response, for the reference. */
  produces?: string;
  status?: number;
  summary: string;
  description?: string;
  /** Group in the reference; defaults to the service or 'account'. */
  tag?: string;
  /** Leave out of the OpenAPI document and llms.txt (page and asset routes are documented in prose). */
  hidden?: boolean;
  handler: (input: RouteInput<P, Q, B>, services: Services) => unknown;
};

// biome-ignore lint/suspicious/noExplicitAny: a list of routes with different schemas; each is checked where defined
export type AnyRoute = RouteDefinition<any, any, any>;

export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(route: RouteDefinition<P, Q, B>): RouteDefinition<P, Q, B> {
  return route;
}

export const credentialsOf = (route: Pick<AnyRoute, 'auth'>): Credential[] =>
  Array.isArray(route.auth) ? route.auth : [route.auth];
