/**
 * Streams one multipart upload to a temp file, hashing as it goes; the request is never held in memory.
 * busboy only *marks* an over-limit file as truncated, so a limit hit is turned into 413 here, and every failure
 * removes the temp file before the error leaves. A full disk is the server's problem (507), never the client's.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { nanoid } from 'nanoid';
import { asStorageFailure, StorageFailure } from '../store/errors.js';
import { pipeIntoFile } from '../store/file/pipe-into-file.js';
import { badRequest, HttpError, payloadTooLarge, unsupportedMediaType } from './errors.js';

export interface ReceivedFile {
  tmpPath: string;
  size: number;
  sha256: string;
  filename: string;
  /** What the client claimed; kept for information only, never trusted. */
  declaredType: string;
  fields: Record<string, string>;
}

export interface ReceiveOptions {
  tmpDir: string;
  maxBytes: number;
  /**
   * Runs when the file part starts, with the fields sent before it; throw to refuse before a byte is written,
   * or return a lower byte limit for this file (a grant sent as a form field).
   */
  beforeFile?: (
    fields: Record<string, string>,
  ) => Promise<{ maxBytes?: number } | undefined> | { maxBytes?: number } | undefined;
  /** Every field as it arrives, repeated names and fields after the file included (OpenAI-style forms). */
  onField?: (name: string, value: string) => void;
}

const FIELD_LIMITS = { fields: 8, fieldSize: 4096, fieldNameSize: 64, parts: 10, headerPairs: 32 };
/** Multipart framing on top of the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

export async function receiveMultipart(req: IncomingMessage, options: ReceiveOptions): Promise<ReceivedFile> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > options.maxBytes + ENVELOPE_BYTES) throw tooLarge(options.maxBytes);
  const tmpPath = join(options.tmpDir, `upload-${nanoid(16)}`);
  const state: ParseState = {};
  try {
    const received = await parse(req, options, tmpPath, state);
    if (received.size === 0) throw badRequest('The file is empty');
    return received;
  } catch (error) {
    req.unpipe(); // the rest of the body is drained after the answer (http/drain-request.ts)
    state.file?.destroy();
    await state.writing?.catch(() => undefined); // the write stream must be closed before the temp file goes
    await rm(tmpPath, { force: true });
    throw error;
  }
}

interface ParseState {
  file?: NodeJS.ReadableStream & { destroy(): void };
  writing?: Promise<ReceivedFile>;
}

function parse(
  req: IncomingMessage,
  options: ReceiveOptions,
  tmpPath: string,
  state: ParseState,
): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { ...FIELD_LIMITS, files: 1, fileSize: options.maxBytes + 1 },
      });
    } catch {
      return reject(unsupportedMediaType('Send multipart/form-data with the file in a field named "file"'));
    }
    const fields: Record<string, string> = {};
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      const storage = asStorageFailure(error);
      reject(
        error instanceof HttpError || storage instanceof StorageFailure
          ? storage
          : badRequest(`Malformed multipart body: ${messageOf(error)}`),
      );
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated)
        return fail(badRequest(`Form field "${name}" is too long`));
      fields[name] = value;
      options.onField?.(name, value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return fail(badRequest(`Unexpected file field "${name}"; send the file in a field named "file"`));
      }
      state.file = stream;
      state.writing = writeFile(stream, tmpPath, options, fields, info);
      state.writing.catch(fail);
    });
    for (const event of ['filesLimit', 'partsLimit', 'fieldsLimit'] as const) {
      parser.on(event, () =>
        fail(badRequest('Send exactly one file in field "file" and at most a few small fields')),
      );
    }
    parser.on('error', fail);
    parser.on('close', () => {
      if (!state.writing)
        return fail(badRequest('No file in the request: send it in a form field named "file"'));
      // Fields sent after the file count too (OpenAI-style forms put them anywhere).
      state.writing.then((received) => resolve({ ...received, fields: { ...fields } }), fail);
    });
    req.on('aborted', () => fail(badRequest('The upload was aborted before it completed')));
    req.pipe(parser);
  });
}

async function writeFile(
  stream: NodeJS.ReadableStream & { truncated?: boolean },
  tmpPath: string,
  options: ReceiveOptions,
  fields: Record<string, string>,
  info: busboy.FileInfo,
): Promise<ReceivedFile> {
  const allowed = options.beforeFile?.(fields);
  const limit = Math.min(
    (allowed instanceof Promise ? await allowed : allowed)?.maxBytes ?? Infinity,
    options.maxBytes,
  );
  // The request may have been refused while beforeFile was deciding: then the file stream is already destroyed.
  if ((stream as Readable).destroyed) throw badRequest('The upload was refused before its file was read');
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) return done(tooLarge(limit));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // busboy flags `truncated` once a file *reaches* its fileSize, so it gets limit + 1 and the meter above decides.
  let overLimit = false;
  stream.on('limit', () => {
    overLimit = true;
    meter.destroy(tooLarge(options.maxBytes)); // stop writing now, not after the whole body streamed by
  });
  await pipeIntoFile(tmpPath, (out) => pipeline(stream, meter, out), { highWaterMark: 1 << 20 });
  if (overLimit || stream.truncated) throw tooLarge(options.maxBytes);
  const filename = sanitizeFilename(info.filename ?? '');
  return {
    tmpPath,
    size,
    sha256: hash.digest('hex'),
    filename,
    declaredType: info.mimeType,
    fields: { ...fields },
  };
}

function tooLarge(maxBytes: number): HttpError {
  return payloadTooLarge(`The file is larger than the ${maxBytes}-byte upload limit`);
}

/** Display only (the stored file is named by id): strip paths, control chars and bidi overrides; cap at 255 bytes. */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  let out = clean === '.' || clean === '..' ? '' : clean;
  while (Buffer.byteLength(out) > 255) out = out.slice(0, -1);
  return out || 'file';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
