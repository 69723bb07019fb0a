// Mounts every route on HTTP: reads the credentials, the workspace header and the body off the request, hands the
// call to invoke-route.ts, adds HTTP's own checks (the exact Origin for cookie writes, rate limits) and writes
// the result.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { bearerOf, SESSION_COOKIE } from './authenticate.js';
import type { Authorized } from './authorize.js';
import { clientAddress, type ProxyTrust } from './client-address.js';
import type { AnyRoute } from './define-route.js';
import { HttpError, unsupportedMediaType } from './errors.js';
import { type InvokeDeps, invokeRoute } from './invoke-route.js';
import { JsonText } from './json-text.js';
import { addressedOrigins, checkSessionOrigin } from './origin-check.js';
import type { RateLimiter } from './rate-limit.js';
import { readJsonBody } from './read-json.js';
import { isReply, type Reply } from './reply.js';

export type MountDeps<D = unknown> = InvokeDeps<D> & {
  ownOrigins: () => string[];
  limiter: RateLimiter;
  jsonLimit: number;
  publicUrl?: string;
  /** Proxies whose X-Forwarded-For names the client (a hosted instance behind nginx). */
  trustedProxy?: ProxyTrust;
};

/**
 * One middleware for every route. Routes are grouped by the literal start of their path (`api/v1/assets`, `img`,
 * `c` ...), each group in a router of its own, so a request is matched against its group's few routes rather than
 * every route's pattern in turn. A path known with another method answers 405.
 */
export function mountRoutes<D>(routes: AnyRoute<D>[], deps: MountDeps<D>): Middleware {
  const chains = new Map(routes.map((route) => [route, routeChain(route, deps)]));
  const groups = new Map<string, Router>();
  for (const [route, chain] of chains) {
    const key = groupOfRoute(route.path);
    if (!groups.has(key)) groups.set(key, new Router());
    const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
    groups.get(key)![verb](route.path, chain);
  }
  const dispatch = new Map(
    [...groups].map(([key, router]) => [
      key,
      compose([router.routes(), router.allowedMethods(ALLOWED_METHODS)]) as Middleware,
    ]),
  );
  const exact = exactRoutes(chains, groups);
  return function routeDispatch(ctx, next) {
    const found = exact.get(`${ctx.method === 'HEAD' ? 'GET' : ctx.method} ${ctx.path}`);
    if (found) {
      ctx.params = {};
      ctx._matchedRoute = found.path;
      return found.chain(ctx, next);
    }
    const group = dispatch.get(groupOfRequest(ctx.path));
    return group ? group(ctx, next) : next();
  };
}

/**
 * Paths without parameters (`/api/v1/me`, `/api/v1/assets`, the hottest agent calls), found by one Map lookup
 * instead of the router's patterns. Only a path that no other route of its method also matches is taken, so the
 * router would have run the same chain; anything else (a trailing slash, another method's 405, OPTIONS) still
 * goes through the router.
 */
function exactRoutes<D>(chains: Map<AnyRoute<D>, Middleware>, groups: Map<string, Router>) {
  const exact = new Map<string, { path: string; chain: Middleware }>();
  for (const [route, chain] of chains) {
    if (/[:*{(]/.test(route.path)) continue;
    const matches = groups.get(groupOfRoute(route.path))!.match(route.path, route.method).pathAndMethod;
    if (matches.length === 1) exact.set(`${route.method} ${route.path}`, { path: route.path, chain });
  }
  return exact;
}

const ALLOWED_METHODS = {
  throw: true,
  methodNotAllowed: () => new HttpError(405, 'Method not allowed on this path'),
  notImplemented: () => new HttpError(501, 'Method not implemented'),
};

/** How many segments name a group: `/api/v1/<resource>`, `/v1/<area>`, else the first segment. */
const groupDepth = (segments: string[]) => (segments[0] === 'api' ? 3 : segments[0] === 'v1' ? 2 : 1);

/** The same as splitting the path and joining its first segments, without building either (it runs per request). */
function groupOfRequest(path: string): string {
  const depth = path.startsWith('/api/') ? 3 : path.startsWith('/v1/') ? 2 : 1;
  let end = 0;
  for (let i = 0; i < depth && end !== -1; i++) end = path.indexOf('/', end + 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** A route's group, from the literal part of its path before the first parameter or wildcard. */
function groupOfRoute(path: string): string {
  const rest = path.slice(1);
  const cut = rest.search(/[:*{(]/);
  const literal = cut === -1 ? rest : rest.slice(0, cut);
  const segments = literal.split('/');
  const depth = groupDepth(segments);
  const group = segments.slice(0, depth);
  // The group's segments must be whole literals: followed by `/`, by an optional part `{...}`, or by nothing.
  const whole = cut === -1 || segments.length > depth || rest[cut] === '{';
  const root = path === '/';
  if (!root && (group.length < depth || !whole || group.some((segment) => segment === '')))
    throw new Error(`Route ${path}: its first ${depth} segment(s) must be literal so it can be grouped`);
  return group.join('/');
}

function routeChain<D>(route: AnyRoute<D>, deps: MountDeps<D>): Middleware {
  return async function routeChain(ctx: Context) {
    if (route.cors) ctx.set(route.cors); // before anything can fail, so a browser can read error bodies too
    const bearer = bearerOf(ctx.get('authorization') || undefined);
    const result = await invokeRoute(
      route,
      {
        // A bearer token wins over the cookie (authenticate.ts), so the cookie is only parsed without one.
        credentials: bearer ? { bearer } : { sessionToken: ctx.cookies.get(SESSION_COOKIE) },
        params: ctx.params,
        query: ctx.query,
        readBody: () => readJson(ctx, deps.jsonLimit),
        requestedWorkspace: ctx.get('x-folio-workspace') || undefined,
        idempotencyKey: ctx.get('idempotency-key') || undefined,
        // Koa 3's ctx.origin is the Origin *header*; our own origin comes from Host, which the host guard checked.
        origin: deps.publicUrl?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`,
        admit: (authorized) => admitHttp(ctx, authorized, deps),
        ctx,
      },
      deps,
    );
    writeResult(ctx, result, route.status ?? 200);
  };
}

async function admitHttp(ctx: Context, { viewer, workspace }: Authorized, deps: MountDeps): Promise<void> {
  // Only where the cookie is what grants access: a public route (waitlist, grant form posts) gains nothing from it.
  if (viewer.kind === 'session' && workspace)
    checkSessionOrigin(ctx.method, ctx.headers, addressedOrigins(ctx.req.headers.host, deps.ownOrigins()));
  const limitId =
    viewer.kind === 'key' ? viewer.keyId : viewer.kind === 'session' ? viewer.sessionId : undefined;
  if (limitId) await deps.limiter.take(limitId);
  // reads and CORS preflights change nothing; every other public request counts against the client's address
  else if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'OPTIONS')
    await deps.limiter.take(`ip:${clientAddress(ctx.req, deps.trustedProxy)}`);
}

async function readJson(ctx: Context, limit: number): Promise<unknown> {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (!ctx.is('application/json')) throw unsupportedMediaType('Send the request body as application/json');
  return readJsonBody(ctx.req, ctx.request.charset, limit);
}

export function writeResult(ctx: Context, result: unknown, status: number): void {
  if (isReply(result)) writeReply(ctx, result);
  else if (result instanceof JsonText) {
    ctx.status = status;
    ctx.body = result.text;
    ctx.type = 'application/json';
  } else if (result === undefined) {
    ctx.status = 204;
  } else {
    ctx.status = status;
    ctx.body = result;
  }
}

function writeReply(ctx: Context, reply: Reply): void {
  if (reply.kind === 'handled') {
    ctx.respond = false;
    return;
  }
  if (reply.headers) ctx.set(reply.headers);
  if (reply.kind === 'redirect') {
    ctx.redirect(reply.url);
    return;
  }
  if (reply.kind === 'empty') {
    ctx.status = reply.status;
    return;
  }
  ctx.status = reply.status ?? 200;
  ctx.type = reply.contentType;
  ctx.body = reply.body;
}
