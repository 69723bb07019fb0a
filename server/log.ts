// Log lines on pino, each at the level its caller chose: plain text on the desktop (the message alone, as the
// start-up contract in docs/headless.md reads it, and a stack under an unexpected error); on a hosted instance one
// JSON object per line (level, time, node, msg), which log collectors parse, plus one line per request naming the
// route pattern, never the raw path or query (serve keys and sign-in tokens live there). The desktop app also keeps
// a rotating file (log-file.ts): the plain lines with each one's time and level (or the JSON lines, in that format).
import type { Middleware } from 'koa';
import pino, { type DestinationStream } from 'pino';
import type { Config } from './config.js';
import { clientAddress, type ProxyTrust } from './http/client-address.js';

export type LogFields = Record<string, unknown>;

/** What the server writes its log through. */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  /** Something went wrong that the server lives with (a retry, a skipped step, a refused input it reports). */
  warn(message: string, fields?: LogFields): void;
  /** Something failed that should not have; `error` (its stack included) goes to the log with it. */
  error(message: string, error?: unknown): void;
}

/** Where a caller that was handed no logger writes: the console, at each line's level. */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

/** For callers with nothing to report to. */
export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

type LineSink = (line: string) => void;

/** The server's logger: each line to `write` (the console, or a test's list), and to `file` when given. */
export function createLogger(
  config: Pick<Config, 'logFormat' | 'nodeId'>,
  write: LineSink,
  file?: DestinationStream,
): Logger {
  const json = config.logFormat === 'json';
  const destination: DestinationStream = json
    ? {
        write(chunk) {
          write(chunk.slice(0, -1));
          file?.write(chunk);
        },
      }
    : plainText(write, file);
  const base = json ? { node: config.nodeId } : null;
  const logger = pino(
    {
      base,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return {
    info: (message, fields) => (fields ? logger.info(fields, message) : logger.info(message)),
    warn: (message, fields) => (fields ? logger.warn(fields, message) : logger.warn(message)),
    error: (message, error) =>
      error === undefined ? logger.error(message) : logger.error({ err: error }, message),
  };
}

type Line = { level: string; time: string; msg: string; err?: { stack?: string; message?: string } | string };

/** pino's JSON line as plain text: the message (and a stack) to `write`, with its time and level to `file`. */
function plainText(write: LineSink, file?: DestinationStream): DestinationStream {
  return {
    write(chunk) {
      const line = JSON.parse(chunk) as Line;
      const stack = line.err === undefined ? '' : `\n${stackOf(line.err)}`;
      write(`${line.msg}${stack}`);
      file?.write(`${line.time} ${line.level.toUpperCase().padEnd(5)} ${line.msg}${stack}\n`);
    },
  };
}

const stackOf = (err: NonNullable<Line['err']>) =>
  typeof err === 'string' ? err : (err.stack ?? err.message ?? JSON.stringify(err));

/** One line per request once its response is done (mounted for the json format only). */
export function requestLog(log: Logger, trusted?: ProxyTrust): Middleware {
  return async function requestLogMiddleware(ctx, next) {
    const started = performance.now();
    ctx.res.once('close', () => {
      log.info('request', {
        method: ctx.method,
        route: ctx._matchedRoute ?? null,
        status: ctx.res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        client: clientAddress(ctx.req, trusted),
        aborted: !ctx.res.writableFinished,
      });
    });
    await next();
  };
}
