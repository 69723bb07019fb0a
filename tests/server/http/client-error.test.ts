// answerClientError writes its JSON answer only where an answer can still be written: never over a response whose
// headers are out, nor onto a socket that can no longer be written; there it only closes the socket.
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { answerClientError } from '../../../server/http/client-error.js';

function fakeSocket(state: { writable: boolean; headersSent?: boolean }) {
  const calls = { written: [] as string[], destroyed: false };
  const socket = {
    writable: state.writable,
    _httpMessage: state.headersSent === undefined ? undefined : { headersSent: state.headersSent },
    end: (text: string) => void calls.written.push(text),
    write: (text: string) => void calls.written.push(text),
    destroy: () => {
      calls.destroyed = true;
    },
  };
  return { socket: socket as unknown as Socket, calls };
}

const parserError = (code: string) => Object.assign(new Error('Parse Error'), { code, reason: 'bad' });

describe('answerClientError', () => {
  it('answers oversized headers with 431, Connection: close and a JSON { error }', () => {
    const { socket, calls } = fakeSocket({ writable: true });
    answerClientError(parserError('HPE_HEADER_OVERFLOW'), socket);
    const [head, body] = calls.written.join('').split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/\r\nContent-Type: application\/json/);
    expect(head).toMatch(/\r\nConnection: close/);
    expect(JSON.parse(body)).toEqual({ error: expect.any(String) });
  });

  it('writes nothing after a response has sent its headers, and closes the socket', () => {
    const { socket, calls } = fakeSocket({ writable: true, headersSent: true });
    answerClientError(parserError('HPE_INVALID_CHUNK_SIZE'), socket);
    expect(calls).toEqual({ written: [], destroyed: true });
  });

  it('writes nothing onto a socket that is no longer writable, or was reset, and closes it', () => {
    for (const [writable, code] of [
      [false, 'HPE_INVALID_METHOD'],
      [true, 'ECONNRESET'],
    ] as const) {
      const { socket, calls } = fakeSocket({ writable });
      answerClientError(parserError(code), socket);
      expect(calls).toEqual({ written: [], destroyed: true });
    }
  });
});
