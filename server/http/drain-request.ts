// Answers that leave before the request body was read (401, 403, 413, 415 ...) must reach clients that are
// still sending. Closing the socket under such a client resets it, and fetch (undici), and so the openai client,
// reports the failed write (EPIPE, ECONNRESET) instead of the status. So the rest of the body is read and
// dropped after the answer, as nginx's and Apache's lingering close do, but only up to a bound: a client that
// sends more bytes or for longer than that is cut off, so nobody makes the server read unbounded bytes. The cut
// is a half-close first: reading stops and a FIN follows the answer, so a client whose next write would meet a
// reset reads the answer and the end of the stream; the socket is dropped a moment later.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';
import type { Middleware } from 'koa';

export type DrainLimits = { bytes: number; ms: number };

/** Outermost middleware: after the answer, drains whatever body the route left unread, within `limits`. */
export function drainUnreadBody(limits: DrainLimits): Middleware {
  return async function drainUnreadBodyMiddleware(ctx, next) {
    // Taken now: destroying the request (stream.pipeline does on error) sets req.socket to null.
    const socket = ctx.req.socket;
    try {
      await next();
    } finally {
      if (!ctx.req.complete && !socket.destroyed) drainRequest(ctx.req, ctx.res, socket, limits);
    }
  };
}

/** How long a cut-off client has to read the answer and our FIN before its socket is dropped. */
const CLOSE_GRACE_MS = 2_000;

/** Reads and drops the rest of `req`; past `limits` the connection is closed once `res` has been sent. */
export function drainRequest(req: IncomingMessage, res: ServerResponse, socket: Socket, limits: DrainLimits) {
  const closeAfterAnswer = () =>
    finished(res, () => {
      req.pause(); // a flowing request would resume its socket on its next read
      socket.pause();
      socket.end();
      const drop = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
      drop.unref();
      socket.once('close', () => clearTimeout(drop));
    });
  // A destroyed request can no longer be read to its end: answer, then close.
  if (req.destroyed) return closeAfterAnswer();
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limits.bytes) cutOff();
  };
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData);
  };
  const cutOff = () => {
    stop();
    closeAfterAnswer();
  };
  const timer = setTimeout(cutOff, limits.ms);
  req.on('data', onData);
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}
