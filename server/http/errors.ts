// The one error shape: a status, a code, a message and details. Services and engines throw these (or subclasses
// that fix a code), and as-http-error.ts turns anything thrown into one; the body a client gets is
// `{ error: message, ...details }` (docs/api.md#errors). The code names the error for the server's log and for
// callers in this process; bodies keep the documented shape.
export class HttpError extends Error {
  readonly code: string;
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
    this.code = code ?? codeOfStatus(status);
  }
}

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal',
  502: 'bad_gateway',
  503: 'unavailable',
  507: 'storage_full',
};

export const codeOfStatus = (status: number) => CODES[status] ?? `http_${status}`;

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, message, details);
export const unauthorized = (
  message = 'Authentication required: send a session cookie or `Authorization: Bearer <API key>`',
) => new HttpError(401, message);
export const forbidden = (message: string, details?: Record<string, unknown>) =>
  new HttpError(403, message, details);
export const forbiddenService = (service: string, enabledServices: string[]) =>
  new HttpError(403, `This API key is not enabled for the ${service} service`, { service, enabledServices });
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const conflict = (message: string) => new HttpError(409, message);
export const gone = (message: string) => new HttpError(410, message);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMediaType = (message: string) => new HttpError(415, message);
export const rangeNotSatisfiable = (size: number) =>
  new HttpError(416, 'Requested range not satisfiable', {}, { 'Content-Range': `bytes */${size}` });
export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new HttpError(422, message, details);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(
    429,
    `Rate limit exceeded; retry in ${retryAfterSeconds} s`,
    {},
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );
export const serviceUnavailable = (message: string) => new HttpError(503, message);
