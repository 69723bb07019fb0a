// Builds every route's chain the same way: authenticate → authorize (one workspace, service) →
// origin check for cookie writes → rate limit → validate → handler → write the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../services.js';
import { bearerOf, type CredentialResolvers, identify, SESSION_COOKIE } from './authenticate.js';
import { authorize, type WorkspaceDirectory } from './authorize.js';
import type { AnyRoute } from './define-route.js';
import { unsupportedMediaType } from './errors.js';
import { addressedOrigins, checkSessionOrigin } from './origin-check.js';
import type { RateLimiter } from './rate-limit.js';
import { readJsonBody } from './read-json.js';
import { isReply, type Reply } from './reply.js';

export type MountDeps = {
  resolvers: CredentialResolvers;
  workspaces: WorkspaceDirectory;
  ownOrigins: () => string[];
  limiter: RateLimiter;
  jsonLimit: string;
  publicUrl?: string;
  services: Services;
};

export function mountRoutes(routes: AnyRoute[], deps: MountDeps): Router {
  const router = new Router();
  const jsonLimit = Number.parseInt(deps.jsonLimit, 10);
  for (const route of routes) {
    const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
    router[verb](route.path, async function routeChain(ctx: Context) {
      await runRoute(ctx, route, deps, jsonLimit);
    });
  }
  return router;
}

async function runRoute(ctx: Context, route: AnyRoute, deps: MountDeps, jsonLimit: number) {
  if (route.cors) ctx.set(route.cors);
  const identified = identify(
    {
      bearer: bearerOf(ctx.get('authorization') || undefined),
      sessionToken: ctx.cookies.get(SESSION_COOKIE),
    },
    deps.resolvers,
  );
  const { viewer, workspace } = authorize(
    { route, identified, params: ctx.params, requestedWorkspace: ctx.get('x-folio-workspace') || undefined },
    deps.workspaces,
  );
  // Only where the cookie is what grants access: a public route (waitlist, grant form posts) gains nothing from it.
  if (viewer.kind === 'session' && workspace)
    checkSessionOrigin(ctx.method, ctx.headers, addressedOrigins(ctx.req.headers.host, deps.ownOrigins()));
  const limitId =
    viewer.kind === 'key' ? viewer.keyId : viewer.kind === 'session' ? viewer.sessionId : undefined;
  if (limitId) deps.limiter.take(limitId);
  // reads and CORS preflights change nothing; every other public request counts against the client's address
  else if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'OPTIONS')
    deps.limiter.take(`ip:${ctx.req.socket.remoteAddress}`);
  const params = route.params ? route.params.parse(ctx.params) : ctx.params;
  const query = route.query ? route.query.parse(ctx.query) : undefined;
  const body = route.body ? route.body.parse(await readJson(ctx, jsonLimit)) : undefined;
  // Koa 3's ctx.origin is the Origin *header*; our own origin comes from Host, which the host guard checked.
  const origin = deps.publicUrl?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`;
  const result = await route.handler(
    { workspace: workspace!, viewer, params, query, body, origin, ctx },
    deps.services,
  );
  writeResult(ctx, result, route.status ?? 200);
}

async function readJson(ctx: Context, limit: number): Promise<unknown> {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (!ctx.is('application/json')) throw unsupportedMediaType('Send the request body as application/json');
  return readJsonBody(ctx.req, ctx.request.charset, limit);
}

export function writeResult(ctx: Context, result: unknown, status: number): void {
  if (isReply(result)) writeReply(ctx, result);
  else if (result === undefined) {
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
