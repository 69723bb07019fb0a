import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { InvalidCursor, ScopeGone, StorageFailure, StoreConflict } from '../store/errors.js';
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
  error = fromStoreError(error);
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

/** The store's errors as the statuses a client can act on. */
function fromStoreError(error: unknown): unknown {
  if (error instanceof InvalidCursor) return new HttpError(400, error.message);
  if (error instanceof StoreConflict) return new HttpError(409, `That ${error.field} is already taken`);
  if (error instanceof ScopeGone) return new HttpError(410, 'This workspace was deleted');
  if (error instanceof StorageFailure) {
    if (error.full) return new HttpError(507, error.message);
    return new HttpError(503, `${error.message}; nothing was saved, try again`, {}, { 'Retry-After': '5' });
  }
  return error;
}
