// Raw HTTP/1.x over a socket: fetch cannot send a Host header, two of them, or an absolute-form target.
import { connect } from 'node:net';

export type RawResponse = { status: number; headers: string; body: string };

export function rawRequest(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n') });
    });
    // Written, not ended: a half-close before the answer makes Node's server abort the request, so the test would
    // depend on the handler answering before that FIN is read. `Connection: close` ends the exchange instead.
    socket.write(request);
  });
}

/** A request with the given header lines; `Connection: close` is added. */
export const rawGet = (port: number, target: string, headerLines: string[], version = '1.1') =>
  rawRequest(
    port,
    `GET ${target} HTTP/${version}\r\n${[...headerLines, 'Connection: close'].join('\r\n')}\r\n\r\n`,
  );
