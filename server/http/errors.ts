// The one error type services throw; error-boundary.ts turns it into `{ error, ...details }` (docs/api.md#errors).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

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
