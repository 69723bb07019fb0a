// A route is data: method, path, who may call it, its service, its schemas, its MCP tool name and its handler.
// invoke-route.ts runs every route the same way; mount-routes.ts mounts them on HTTP, and reference/ builds
// OpenAPI and llms.txt from the same list.
//
// Types follow the declaration: `viewer` and `workspace` are typed from `auth`, the handler's result is checked
// against `response`, and only a route declared with `defineRawRoute` sees Koa's ctx (it reads the raw request or
// writes the response itself), so the compiler shows which routes can also be called as MCP tools.
//
// A handler's second argument is what the app built for it (`D`). The transport never names it: the root binds
// `routeDefiners` to its own type (server/deps.ts: RouteDeps), and routes are declared with what that returns.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { JsonText } from './json-text.js';
import type { Reply } from './reply.js';
import type { Credential, ServiceName, Viewer, WorkspaceRef } from './viewer.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type MaybePromise<T> = T | Promise<T>;

type Auth = Credential | readonly Credential[];
type CredentialsOf<A> = A extends readonly (infer C)[] ? C : A;
type ViewerOf<C> = C extends 'public'
  ? Viewer
  : C extends 'session' | 'workspaceOwner' | 'instanceOwner'
    ? Extract<Viewer, { kind: 'session' }>
    : C extends 'key'
      ? Extract<Viewer, { kind: 'key' }>
      : C extends 'grant'
        ? Extract<Viewer, { kind: 'grant' }>
        : never;

/** Who calls and on which workspace: a public route may be called by anyone and acts on no workspace. */
export type Caller<A> =
  'public' extends CredentialsOf<A>
    ? { viewer: Viewer; workspace: null }
    : { viewer: ViewerOf<CredentialsOf<A>>; workspace: WorkspaceRef };

export type RouteInput<A, P, Q, B> = Caller<A> & {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** This server's own origin for absolute URLs: `publicUrl` when hosted, else from the host-guarded Host. */
  origin: string;
  /** The request's `Idempotency-Key` (HTTP header), for routes whose retries must answer the same. */
  idempotencyKey?: string;
};

/**
 * What a handler may answer: the response schema's shape, that shape with its JSON text already made (JsonText), or
 * a reply (bytes, stream, redirect, empty).
 */
export type RouteResult<R> = R extends z.ZodType ? z.input<R> | JsonText<z.input<R>> | Reply : unknown;

type RouteFields<A, P, Q, B, R> = {
  method: Method;
  path: string;
  auth: A;
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
  response?: R;
  /** The MCP tool this route is, named `<capability>_<verb>`; routes without one are not tools. */
  tool?: string;
  /** Content type of a non-JSON response, for the reference. */
  produces?: string;
  status?: number;
  summary: string;
  description?: string;
  /** Group in the reference; defaults to the service or 'account'. */
  tag?: string;
  /** Leave out of the OpenAPI document and llms.txt (page and asset routes are documented in prose). */
  hidden?: boolean;
};

export type RouteDefinition<A, P, Q, B, R, D> = RouteFields<A, P, Q, B, R> & {
  raw?: false;
  handler: (input: RouteInput<A, P, Q, B>, deps: D) => MaybePromise<RouteResult<R>>;
};

export type RawRouteDefinition<A, P, Q, R, D> = RouteFields<A, P, Q, undefined, R> & {
  /** The handler reads `ctx.req` itself (multipart, raw bytes, cookies) or writes `ctx.res`. */
  raw: true;
  /** Documents a raw request body in the reference, e.g. `multipart/form-data`. */
  requestContentType?: string;
  handler: (
    input: RouteInput<A, P, Q, undefined> & { ctx: Context },
    deps: D,
  ) => MaybePromise<RouteResult<R>>;
};

/**
 * A route as the route table holds it: every route has different schemas, each checked where it is defined, and
 * takes the `D` its definer was bound to (any, where only the route's fields are read).
 */
type Erased<R, D> = Omit<R, 'handler'> & {
  // biome-ignore lint/suspicious/noExplicitAny: the input was typed at the definition; invoke-route builds it
  handler: (input: any, deps: D) => unknown;
};
type AnySchema = Schema | undefined;
// biome-ignore lint/suspicious/noExplicitAny: a list that only reads the routes' fields takes any deps
export type AnyRoute<D = any> =
  | Erased<RouteDefinition<Auth, AnySchema, AnySchema, AnySchema, AnySchema, D>, D>
  | Erased<RawRouteDefinition<Auth, AnySchema, AnySchema, AnySchema, D>, D>;
// biome-ignore lint/suspicious/noExplicitAny: as AnyRoute
export type ToolRoute<D = any> = Extract<AnyRoute<D>, { raw?: false }> & { tool: string };

/** `defineRoute` and `defineRawRoute` for handlers that get `D` as their second argument. */
export function routeDefiners<D>() {
  return {
    defineRoute: <
      const A extends Auth,
      P extends Schema | undefined = undefined,
      Q extends Schema | undefined = undefined,
      B extends Schema | undefined = undefined,
      R extends Schema | undefined = undefined,
    >(
      route: RouteDefinition<A, P, Q, B, R, D>,
    ): RouteDefinition<A, P, Q, B, R, D> => route,
    defineRawRoute: <
      const A extends Auth,
      P extends Schema | undefined = undefined,
      Q extends Schema | undefined = undefined,
      R extends Schema | undefined = undefined,
    >(
      route: Omit<RawRouteDefinition<A, P, Q, R, D>, 'raw'>,
    ): RawRouteDefinition<A, P, Q, R, D> => ({ ...route, raw: true }),
  };
}

export const credentialsOf = (route: Pick<AnyRoute, 'auth'>): Credential[] =>
  Array.isArray(route.auth) ? [...route.auth] : [route.auth as Credential];

export const isToolRoute = (route: AnyRoute): route is ToolRoute =>
  !route.raw && typeof route.tool === 'string';
