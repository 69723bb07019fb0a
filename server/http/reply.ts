// What a handler may return besides a JSON-able value: bytes, streams, redirects, pages, nothing.
import type { Readable } from 'node:stream';

export type Reply =
  | {
      kind: 'bytes';
      contentType: string;
      body: Buffer | string;
      headers?: Record<string, string>;
      status?: number;
    }
  | { kind: 'stream'; contentType: string; body: Readable; headers?: Record<string, string>; status?: number }
  | { kind: 'redirect'; url: string; headers?: Record<string, string> }
  | { kind: 'empty'; status: number; headers?: Record<string, string> }
  | { kind: 'handled' };

const REPLY = Symbol('reply');
type Tagged = Reply & { [REPLY]: true };
const tag = (reply: Reply): Tagged => Object.assign(reply, { [REPLY]: true as const });

export const reply = {
  bytes: (contentType: string, body: Buffer | string, headers?: Record<string, string>, status?: number) =>
    tag({ kind: 'bytes', contentType, body, headers, status }),
  stream: (contentType: string, body: Readable, headers?: Record<string, string>, status?: number) =>
    tag({ kind: 'stream', contentType, body, headers, status }),
  html: (body: string, headers?: Record<string, string>) =>
    tag({ kind: 'bytes', contentType: 'text/html; charset=utf-8', body, headers }),
  text: (body: string, contentType = 'text/plain; charset=utf-8', headers?: Record<string, string>) =>
    tag({ kind: 'bytes', contentType, body, headers }),
  redirect: (url: string, headers?: Record<string, string>) => tag({ kind: 'redirect', url, headers }),
  empty: (status = 204, headers?: Record<string, string>) => tag({ kind: 'empty', status, headers }),
  /** The handler wrote the response itself (byte-serving fast paths, upgrades). */
  handled: () => tag({ kind: 'handled' }),
};

export const isReply = (value: unknown): value is Reply =>
  typeof value === 'object' && value !== null && REPLY in value;
