// Log lines: plain text on the desktop; on a hosted instance one JSON object per line (time, level, node, msg),
// which log collectors parse, plus one line per request naming the route pattern, never the raw path or query
// (serve keys and sign-in tokens live there).
import type { Middleware } from 'koa';
import type { Config } from './config.js';
import { clientAddress, type ProxyTrust } from './http/client-address.js';

export type Log = (line: string) => void;

export function structuredLog(config: Pick<Config, 'logFormat' | 'nodeId'>, write: Log): Log {
  if (config.logFormat !== 'json') return write;
  return (line) =>
    write(
      JSON.stringify({
        time: new Date().toISOString(),
        level: levelOf(line),
        node: config.nodeId,
        msg: line,
      }),
    );
}

const levelOf = (line: string) => (/\b(failed|could not|error|lost)\b/i.test(line) ? 'warn' : 'info');

/** One JSON line per request once its response is done (mounted for the json format only). */
export function requestLog(config: Pick<Config, 'nodeId'>, write: Log, trusted?: ProxyTrust): Middleware {
  return async function requestLogMiddleware(ctx, next) {
    const started = performance.now();
    ctx.res.once('close', () => {
      write(
        JSON.stringify({
          time: new Date().toISOString(),
          level: 'info',
          node: config.nodeId,
          msg: 'request',
          method: ctx.method,
          route: ctx._matchedRoute ?? null,
          status: ctx.res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          client: clientAddress(ctx.req, trusted),
          aborted: !ctx.res.writableFinished,
        }),
      );
    });
    await next();
  };
}
