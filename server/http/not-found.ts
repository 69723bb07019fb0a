import type { Middleware } from 'koa';
import { HttpError } from './errors.js';

/** Innermost: anything no route answered is a JSON 404 (405 when the path exists with another method). */
export function notFoundFallback(): Middleware {
  return async function notFoundMiddleware(ctx) {
    if (ctx.body != null || ctx.status !== 404 || ctx.respond === false) return;
    throw new HttpError(404, `Not found: ${ctx.method} ${ctx.path}`);
  };
}
