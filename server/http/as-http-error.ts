// The one mapping from anything thrown to the error a client gets. The error boundary, WebSocket refusals, MCP's
// tool and JSON-RPC errors and a failed transcript's status all read it, so one error has one status everywhere.
import { ZodError } from 'zod';
import { InvalidCursor, ScopeGone, StorageFailure, StoreConflict } from '../store/errors.js';
import { HttpError } from './errors.js';

/** The error as a client sees it; undefined for an unexpected one (a 500 whose details stay in the log). */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof ZodError) return invalidInput(error);
  const store = fromStoreError(error);
  if (store) return store;
  return fromForeignError(error);
}

/** The status `error` answers with: its own, or 500 for an unexpected one. */
export const statusOf = (error: unknown): number => asHttpError(error)?.status ?? 500;

function invalidInput(error: ZodError): HttpError {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0];
  const message = first ? `Invalid ${first.path || 'request'}: ${first.message}` : 'Invalid request';
  return new HttpError(400, message, { issues }, {}, 'invalid_input');
}

/** The store's errors as the statuses a client can act on. */
function fromStoreError(error: unknown): HttpError | undefined {
  if (error instanceof InvalidCursor) return new HttpError(400, error.message, {}, {}, 'invalid_cursor');
  if (error instanceof StoreConflict) return new HttpError(409, `That ${error.field} is already taken`);
  if (error instanceof ScopeGone)
    return new HttpError(410, 'This workspace was deleted', {}, {}, 'workspace_gone');
  if (error instanceof StorageFailure) {
    if (error.full) return new HttpError(507, error.message);
    const message = `${error.message}; nothing was saved, try again`;
    return new HttpError(503, message, {}, { 'Retry-After': '5' }, 'storage_failed');
  }
  return undefined;
}

/**
 * A library's error that carries `status` (Koa's and http-errors' convention): a 4xx is the client's to see, a 5xx
 * only when it says `expose`, as Koa's own handler decides.
 */
function fromForeignError(error: unknown): HttpError | undefined {
  const { status, expose, code } = (error ?? {}) as { status?: unknown; expose?: unknown; code?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 599) return undefined;
  if (status >= 500 && expose !== true) return undefined;
  return new HttpError(status, clientMessage(error), {}, {}, typeof code === 'string' ? code : undefined);
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
