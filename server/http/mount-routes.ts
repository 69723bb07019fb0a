// Mounts every route on HTTP: reads the credentials, the workspace header and the body off the request, hands the
// call to invoke-route.ts, adds HTTP's own checks (the exact Origin for cookie writes, rate limits) and writes
// the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import { bearerOf, SESSION_COOKIE } from './authenticate.js';
import type { Authorized } from './authorize.js';
import type { AnyRoute } from './define-route.js';
import { unsupportedMediaType } from './errors.js';
import { type InvokeDeps, invokeRoute } from './invoke-route.js';
import { addressedOrigins, checkSessionOrigin } from './origin-check.js';
import type { RateLimiter } from './rate-limit.js';
import { readJsonBody } from './read-json.js';
import { isReply, type Reply } from './reply.js';

export type MountDeps = InvokeDeps & {
  ownOrigins: () => string[];
  limiter: RateLimiter;
  jsonLimit: number;
  publicUrl?: string;
};

export function mountRoutes(routes: AnyRoute[], deps: MountDeps): Router {
  const router = new Router();
  for (const route of routes) {
    const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
    router[verb](route.path, async function routeChain(ctx: Context) {
      if (route.cors) ctx.set(route.cors); // before anything can fail, so a browser can read error bodies too
      const result = await invokeRoute(
        route,
        {
          credentials: {
            bearer: bearerOf(ctx.get('authorization') || undefined),
            sessionToken: ctx.cookies.get(SESSION_COOKIE),
          },
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
    });
  }
  return router;
}

function admitHttp(ctx: Context, { viewer, workspace }: Authorized, deps: MountDeps): void {
  // Only where the cookie is what grants access: a public route (waitlist, grant form posts) gains nothing from it.
  if (viewer.kind === 'session' && workspace)
    checkSessionOrigin(ctx.method, ctx.headers, addressedOrigins(ctx.req.headers.host, deps.ownOrigins()));
  const limitId =
    viewer.kind === 'key' ? viewer.keyId : viewer.kind === 'session' ? viewer.sessionId : undefined;
  if (limitId) deps.limiter.take(limitId);
  // reads and CORS preflights change nothing; every other public request counts against the client's address
  else if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'OPTIONS')
    deps.limiter.take(`ip:${ctx.req.socket.remoteAddress}`);
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
