/**
 * Streams one multipart upload to a temp file, hashing as it goes; the request is never held in memory.
 * @fastify/busboy only *marks* an over-limit file as truncated, so a limit hit is turned into 413 here, and every
 * failure removes the temp file before the error leaves. A full disk is the server's problem (507), never the client's.
 */
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import { nanoid } from 'nanoid';
import { badRequest, HttpError, payloadTooLarge, unsupportedMediaType } from '../../../http/errors.js';
import { asStorageFailure, StorageFailure } from '../../../store/errors.js';
import { pipeIntoFile } from '../../../store/file/pipe-into-file.js';
import { Sha256Stream } from '../../../store/sha256-stream.js';

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

const FIELD_LIMITS = { fields: 8, fieldSize: 4096, parts: 10, headerPairs: 32, headerSize: 16 * 1024 };
/** @fastify/busboy does not apply a `fieldNameSize` limit to multipart forms, so the field handler checks it. */
const FIELD_NAME_BYTES = 64;
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
  file?: BusboyFileStream;
  writing?: Promise<ReceivedFile>;
}

function parse(
  req: IncomingMessage,
  options: ReceiveOptions,
  tmpPath: string,
  state: ParseState,
): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let parser: BusboyInstance;
    try {
      // Header parameters (a raw UTF-8 `filename="…"` as browsers and curl send it, or RFC 5987 `filename*=`)
      // are decoded by their own charset, UTF-8 when they name none.
      parser = new Busboy({
        headers: req.headers as { 'content-type': string },
        limits: { ...FIELD_LIMITS, files: 1, fileSize: options.maxBytes + 1 },
        // `filename=""` alone does not make a file (the part is a field, and the request has no file)
        isPartAFile: (_name, type, filename) => type === 'application/octet-stream' || Boolean(filename),
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
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated || Buffer.byteLength(name) > FIELD_NAME_BYTES)
        return fail(badRequest(`Form field "${name.slice(0, FIELD_NAME_BYTES)}" is too long`));
      fields[name] = value;
      options.onField?.(name, value);
    });
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      if (name !== 'file') {
        stream.resume();
        return fail(badRequest(`Unexpected file field "${name}"; send the file in a field named "file"`));
      }
      state.file = stream;
      state.writing = writeFile(stream, tmpPath, options, fields, { filename, mimeType });
      state.writing.catch(fail);
    });
    for (const event of ['filesLimit', 'partsLimit', 'fieldsLimit'] as const) {
      parser.on(event, () =>
        fail(badRequest('Send exactly one file in field "file" and at most a few small fields')),
      );
    }
    parser.on('error', fail);
    parser.on('finish', () => {
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
  stream: BusboyFileStream,
  tmpPath: string,
  options: ReceiveOptions,
  fields: Record<string, string>,
  info: { filename: string | undefined; mimeType: string },
): Promise<ReceivedFile> {
  const allowed = options.beforeFile?.(fields);
  const limit = Math.min(
    (allowed instanceof Promise ? await allowed : allowed)?.maxBytes ?? Infinity,
    options.maxBytes,
  );
  // The request may have been refused while beforeFile was deciding: then the file stream is already destroyed.
  if (stream.destroyed) throw badRequest('The upload was refused before its file was read');
  const meter = new Sha256Stream({ maxBytes: limit, overLimit: () => tooLarge(limit) });
  // @fastify/busboy flags `truncated` once a file *reaches* its fileSize, so it gets limit + 1 and the meter above
  // decides.
  let overLimit = false;
  stream.on('limit', () => {
    overLimit = true;
    meter.destroy(tooLarge(options.maxBytes)); // stop writing now, not after the whole body streamed by
  });
  await pipeIntoFile(tmpPath, (out) => pipeline(stream, meter, out), { highWaterMark: 1 << 20 });
  if (overLimit || stream.truncated) throw tooLarge(options.maxBytes);
  const filename = sanitizeFilename(decodeEncodedWords(info.filename ?? ''));
  return {
    tmpPath,
    size: meter.bytes,
    sha256: meter.digest(),
    filename,
    declaredType: info.mimeType,
    fields: { ...fields },
  };
}

function tooLarge(maxBytes: number): HttpError {
  return payloadTooLarge(`The file is larger than the ${maxBytes}-byte upload limit`);
}

const ENCODED_WORDS = /^(?:=\?utf-8\?b\?[A-Za-z0-9+/=]*\?=\s*)+$/i;

/**
 * .NET's HttpClient sends a non-ASCII name twice: as RFC 2047 words (`filename="=?utf-8?B?…?="`) and as
 * `filename*=utf-8''…`. @fastify/busboy hands over the first `filename` it reads, so the words are decoded here.
 */
function decodeEncodedWords(name: string): string {
  if (!ENCODED_WORDS.test(name)) return name;
  const words = [...name.matchAll(/=\?utf-8\?b\?([^?]*)\?=/gi)];
  return Buffer.concat(words.map((word) => Buffer.from(word[1], 'base64'))).toString('utf8');
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
