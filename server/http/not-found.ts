import type { Middleware } from 'koa';

/**
 * Innermost: anything no route answered is a JSON 404. It sets the response rather than throwing, so the
 * router's allowedMethods (which runs after `next()` and only looks at a 404 status) can still turn a
 * known path called with another method into 405; a throw here skipped it.
 */
export function notFoundFallback(): Middleware {
  return async function notFoundMiddleware(ctx) {
    if (ctx.body != null || ctx.status !== 404 || ctx.respond === false) return;
    ctx.body = { error: `Not found: ${ctx.method} ${ctx.path}` };
    ctx.status = 404;
  };
}
