// Requests Node's HTTP parser refuses (duplicate Content-Length, Content-Length with Transfer-Encoding, bad chunk
// sizes, oversized headers ...) never reach Koa: Node answers them itself with an empty 400. This answers them
// like every other error, `{ error }` with the status Node would pick (431 for oversized headers, 408 for a
// request that timed out), then closes the connection, whose framing can no longer be trusted.
import type { Socket } from 'node:net';

type ParserError = Error & { code?: string; reason?: string };

/** How long a client may take to read the answer before the socket is closed under it. */
const LINGER_MS = 1_000;

export function answerClientError(error: ParserError, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, text, message] = describe(error);
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

function describe(error: ParserError): [number, string, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'Request line and headers are too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'Chunk extensions are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'The request was not received in time'];
    default:
      return [400, 'Bad Request', `Malformed HTTP request: ${error.reason ?? 'the parser refused it'}`];
  }
}
