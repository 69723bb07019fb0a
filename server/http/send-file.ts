/**
 * Serves a file on the raw Node request/response (no Koa in the hot path): validators, 304/412, RFC 9110 Range
 * (single, merged, or multipart/byteranges), HEAD. Callers decide Content-Type and disposition; this never sniffs.
 * The bytes come from a local file (`path`), or from any `source` that reads a range as a stream (a bucket).
 */

import { randomBytes } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { open, stat as statFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ByteRange, planByteResponse } from './range-plan.js';

/** Bytes that are not a local file: their size and age, and a reader for an inclusive range of them. */
export type ByteSource = {
  size: number;
  modifiedAt: Date;
  read(range: ByteRange): Promise<Readable | undefined>;
};

export interface SendFileOptions {
  /** A local file; or leave it out and give `source`. */
  path?: string;
  source?: ByteSource;
  contentType: string;
  /** Extra response headers (Content-Disposition, Cache-Control, CSP, Vary, ...). */
  headers?: Record<string, string>;
  /** Strong, quoted ETag; default derives from size, mtime and inode. */
  etag?: string;
  stat?: Stats;
  /** Read size per chunk; measured in bench/assets-serve.ts (1 MiB is the sweet spot there). */
  chunkBytes?: number;
  /**
   * Behind nginx: the internal URI of this file (X-Accel-Redirect). Preconditions are still answered here; a
   * 200 or 206 becomes these headers and nginx sends the bytes, Range included (deploy/nginx/).
   */
  accel?: string;
}

export const DEFAULT_CHUNK_BYTES = 1 << 20;
/**
 * Bodies up to this size go out as one read + one write (bench: ~1.7× the req/s of createReadStream on 1 MB files),
 * while the buffers in flight stay under WHOLE_READ_BUDGET; anything else streams.
 */
export const WHOLE_READ_BYTES = 2 << 20;
const WHOLE_READ_BUDGET = 64 << 20;
let wholeReadInFlight = 0;

/** Resolves once the response is finished (or the client went away). Throws ENOENT before writing anything. */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  options: SendFileOptions,
): Promise<void> {
  const { source } = options;
  const stats = source
    ? { size: source.size, mtimeMs: source.modifiedAt.getTime() }
    : (options.stat ?? (await statFile(pathOf(options))));
  const etag =
    options.etag ??
    (source ? `"${source.size.toString(36)}-${stats.mtimeMs.toString(36)}"` : statEtag(stats as Stats));
  const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
  const read = source ? sourceReader(source) : fileReader(pathOf(options));
  const method = req.method ?? 'GET';
  const plan = planByteResponse(method, req.headers, {
    size: stats.size,
    etag,
    lastModified: lastModified.getTime(),
  });
  const headers: Record<string, string | number> = {
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': lastModified.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    ...options.headers,
  };
  const chunk = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (plan.status === 304 || plan.status === 412) return finish(res, plan.status, headers);
  if (plan.status === 416) return sendUnsatisfiable(res, stats.size, headers);
  headers['Content-Type'] = options.contentType;
  if (options.accel) {
    const { 'Accept-Ranges': _nginxSaysItself, ...passed } = headers;
    return finish(res, 200, { ...passed, 'X-Accel-Redirect': options.accel });
  }
  if (plan.status === 200)
    return sendSlice(req, res, 200, headers, read, { start: 0, end: stats.size - 1 }, chunk);
  if (plan.ranges.length === 1) {
    const [r] = plan.ranges;
    headers['Content-Range'] = `bytes ${r.start}-${r.end}/${stats.size}`;
    return sendSlice(req, res, 206, headers, read, r, chunk);
  }
  return sendMultipart(req, res, headers, options, read, stats.size, plan.ranges, chunk);
}

/** Reads a range: a local file (which may also be read whole into one buffer), or any source. */
type Reader = { path?: string; stream(range: ByteRange, chunk: number): Promise<Readable> };

function pathOf(options: SendFileOptions): string {
  if (!options.path) throw new Error('sendFile needs a path or a source');
  return options.path;
}

const fileReader = (path: string): Reader => ({
  path,
  stream: async (range, chunk) =>
    createReadStream(path, { start: range.start, end: range.end, highWaterMark: chunk }),
});

const sourceReader = (source: ByteSource): Reader => ({
  async stream(range) {
    const stream = await source.read(range);
    if (!stream) throw Object.assign(new Error('The bytes are gone'), { code: 'ENOENT' });
    return stream;
  },
});

export function statEtag(stats: Stats): string {
  return `"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}-${stats.ino.toString(36)}"`;
}

function finish(res: ServerResponse, status: number, headers: Record<string, string | number>): void {
  res.writeHead(status, headers);
  res.end();
}

function sendUnsatisfiable(
  res: ServerResponse,
  size: number,
  headers: Record<string, string | number>,
): void {
  const body = JSON.stringify({ error: `Range not satisfiable for a ${size}-byte file`, size });
  res.writeHead(416, {
    ...headers,
    'Content-Range': `bytes */${size}`,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function sendSlice(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  read: Reader,
  range: ByteRange,
  chunk: number,
): Promise<void> {
  const length = range.end - range.start + 1;
  if (req.method === 'HEAD' || length <= 0) {
    res.writeHead(status, { ...headers, 'Content-Length': length });
    return void res.end();
  }
  if (read.path && length <= WHOLE_READ_BYTES && wholeReadInFlight + length <= WHOLE_READ_BUDGET) {
    res.writeHead(status, { ...headers, 'Content-Length': length });
    return sendWhole(res, read.path, range.start, length);
  }
  // Opened before the head is written: bytes that vanished since the lookup still answer 404, not a torn 200.
  const stream = await read.stream(range, Math.min(chunk, length));
  res.writeHead(status, { ...headers, 'Content-Length': length });
  await pipeline(stream, res).catch(() => res.destroy()); // client went away or the disk failed mid-body
}

async function sendWhole(res: ServerResponse, path: string, start: number, length: number): Promise<void> {
  wholeReadInFlight += length;
  res.once('close', () => (wholeReadInFlight -= length)); // 'close' comes after finish and after an abort alike
  try {
    const file = await open(path, 'r');
    const buffer = Buffer.allocUnsafe(length);
    try {
      const { bytesRead } = await file.read(buffer, 0, length, start);
      if (bytesRead !== length) return void res.destroy(); // truncated underneath us: never send a short body
    } finally {
      await file.close();
    }
    res.end(buffer);
  } catch {
    res.destroy();
  }
}

async function sendMultipart(
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string | number>,
  options: SendFileOptions,
  read: Reader,
  size: number,
  ranges: ByteRange[],
  chunk: number,
): Promise<void> {
  const boundary = randomBytes(12).toString('hex');
  const heads = ranges.map(
    (r, i) =>
      `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${options.contentType}\r\nContent-Range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`,
  );
  const tail = `\r\n--${boundary}--\r\n`;
  const length =
    heads.reduce((n, h, i) => n + Buffer.byteLength(h) + ranges[i].end - ranges[i].start + 1, 0) +
    tail.length;
  res.writeHead(206, {
    ...headers,
    'Content-Type': `multipart/byteranges; boundary=${boundary}`,
    'Content-Length': length,
  });
  if (req.method === 'HEAD') return void res.end();
  try {
    for (const [i, r] of ranges.entries()) {
      res.write(heads[i]);
      await pipeline(await read.stream(r, chunk), res, { end: false });
    }
    res.end(tail);
  } catch {
    res.destroy();
  }
}
