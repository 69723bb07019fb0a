import type { Middleware } from 'koa';
import type { Logger } from '../log.js';
import { asHttpError } from './as-http-error.js';

/** Outermost middleware: every failure leaves as `{ error, ...details }`; nothing unexpected leaks. */
export function errorBoundary(log: Logger): Middleware {
  return async function errorBoundaryMiddleware(ctx, next) {
    try {
      await next();
    } catch (error) {
      const where = `${ctx.method} ${ctx._matchedRoute ?? 'an unrouted path'}`;
      const { status, body, headers } = toResponse(error, log, where);
      if (ctx.headerSent || !ctx.writable) return;
      ctx.status = status;
      ctx.set(headers);
      ctx.body = body;
    }
  };
}

/**
 * Any error as the status, body and headers a client gets (asHttpError). `where` names what failed in the log: a
 * route pattern or a tool, never a path, which may carry a token. An unexpected error is logged with its stack; an
 * expected 5xx (a missing model, a storage failure) as a warning.
 */
export function toResponse(error: unknown, log: Logger, where: string) {
  const known = asHttpError(error);
  if (!known) {
    log.error(`Unexpected error in ${where}`, error);
    return { status: 500, body: { error: 'Internal server error' }, headers: {} };
  }
  if (known.status >= 500) log.warn(`${where} answered ${known.status} (${known.code}): ${known.message}`);
  return { status: known.status, body: { error: known.message, ...known.details }, headers: known.headers };
}
