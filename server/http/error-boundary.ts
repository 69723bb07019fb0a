import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { HttpError } from './errors.js';

type Logger = Pick<Console, 'error'>;

/** Outermost middleware: every failure leaves as `{ error, ...details }`; nothing unexpected leaks. */
export function errorBoundary(log: Logger = console): Middleware {
  return async function errorBoundaryMiddleware(ctx, next) {
    try {
      await next();
    } catch (error) {
      const { status, body, headers } = toResponse(error, log);
      if (ctx.headerSent || !ctx.writable) return;
      ctx.status = status;
      ctx.set(headers);
      ctx.body = body;
    }
  };
}

export function toResponse(error: unknown, log: Logger) {
  if (error instanceof HttpError)
    return { status: error.status, body: { error: error.message, ...error.details }, headers: error.headers };
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const first = issues[0];
    const error400 = first ? `Invalid ${first.path || 'request'}: ${first.message}` : 'Invalid request';
    return { status: 400, body: { error: error400, issues }, headers: {} };
  }
  const status = (error as { status?: number; expose?: boolean }).status;
  if (status && status >= 400 && status < 500)
    return { status, body: { error: clientMessage(error) }, headers: {} };
  log.error(error);
  return { status: 500, body: { error: 'Internal server error' }, headers: {} };
}

/** Body-parser errors (koa-body / co-body / raw-body) rephrased to say what to fix. */
function clientMessage(error: unknown): string {
  const { type, status, message } = error as { type?: string; status: number; message: string };
  if (type === 'entity.too.large' || status === 413) return 'Request body is too large';
  if (type === 'entity.parse.failed' || /JSON/i.test(message)) return 'Request body is not valid JSON';
  if (type === 'encoding.unsupported') return 'Unsupported request body encoding';
  if (status === 415) return 'Unsupported content type: send application/json';
  return message;
}
