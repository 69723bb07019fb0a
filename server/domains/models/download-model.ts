/** Resumable, verified model download into <dataDir>/models (a .part file until the checksum matches). */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { CatalogModel } from '../../engines/whisper/model-catalog.js';
import { modelsDir } from '../../engines/whisper/model-files.js';
import { InvalidModelError, readModelHeader } from '../../engines/whisper/model-header.js';
import { ModelError } from './model-errors.js';
import { checkModelFileName, partPath } from './models-dir.js';

export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number | undefined;
  /** Integer 0..100; 0 while the total is unknown. */
  percent: number;
}

export interface DownloadModelOptions {
  dataDir: string;
  model: Pick<CatalogModel, 'file'> & Partial<Pick<CatalogModel, 'bytes' | 'sha256' | 'sha1'>>;
  baseUrl?: string;
  /** The file's own address, instead of `baseUrl` + file name (a mirror, or a model outside the catalog). */
  url?: string;
  signal?: AbortSignal;
  onProgress?(progress: DownloadProgress): void;
  /** Attempts per call; each one resumes where the last stopped. */
  attempts?: number;
}

/** Downloads and verifies the model; resolves with its installed path. A cut connection resumes with Range. */
export async function downloadModel(options: DownloadModelOptions): Promise<{ path: string; bytes: number }> {
  const file = checkModelFileName(options.model.file);
  const dir = modelsDir(options.dataDir);
  await mkdir(dir, { recursive: true });
  const part = partPath(options.dataDir, file);
  const url =
    options.url ??
    `${(options.baseUrl ?? DEFAULT_MODEL_BASE_URL).replace(/\/$/, '')}/${encodeURIComponent(file)}`;
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      await fetchInto(url, part, options);
      break;
    } catch (err) {
      // the .part file stays for the next attempt (or the next call), unless the user cancelled
      if (options.signal?.aborted || attempt >= attempts || err instanceof ModelError) throw err;
    }
  }
  await verify(part, options.model);
  const path = join(dir, file);
  await rename(part, path);
  return { path, bytes: (await stat(path)).size };
}

async function fetchInto(url: string, part: string, options: DownloadModelOptions): Promise<void> {
  const have = await stat(part).then(
    (s) => s.size,
    () => 0,
  );
  const headers: Record<string, string> = have > 0 ? { range: `bytes=${have}-` } : {};
  const res = await fetch(url, { headers, signal: options.signal, redirect: 'follow' });
  if (res.status === 416 && have > 0) return; // nothing left to fetch: verify what we have
  if (res.status !== 200 && res.status !== 206) {
    throw new ModelError(
      'download_failed',
      `model download failed: ${url} answered ${res.status} ${res.statusText}`,
    );
  }
  const resumed = res.status === 206;
  const start = resumed ? have : 0;
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const total = options.model.bytes ?? (Number.isFinite(length) ? start + length : undefined);
  let received = start;
  const report = () => {
    const percent = total ? Math.min(100, Math.floor((received / total) * 100)) : 0;
    options.onProgress?.({ receivedBytes: received, totalBytes: total, percent });
  };
  report();
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      report();
      done(null, chunk);
    },
  });
  if (!res.body) throw new ModelError('download_failed', `model download failed: ${url} sent no body`);
  const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
  try {
    await pipeline(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), counter, out, {
      signal: options.signal,
    });
  } finally {
    // A cut connection fails the pipeline while a write to the file may still be under way; the next attempt
    // resumes from the file's size, so it must not measure it before that write has landed.
    if (!out.closed) await once(out, 'close');
  }
}

async function verify(part: string, model: DownloadModelOptions['model']): Promise<void> {
  const { size } = await stat(part);
  const fail = async (message: string): Promise<never> => {
    await rm(part, { force: true }); // a bad file must not be resumed from or mistaken for a model
    throw new ModelError('checksum_mismatch', message);
  };
  if (model.bytes !== undefined && size !== model.bytes) {
    await fail(`downloaded ${model.file} has ${size} bytes, expected ${model.bytes}`);
  }
  const algorithm = model.sha256 ? 'sha256' : model.sha1 ? 'sha1' : undefined;
  if (algorithm) {
    const expected = (model.sha256 ?? model.sha1)!.toLowerCase();
    const actual = await hashFile(part, algorithm);
    if (actual !== expected)
      await fail(
        `downloaded ${model.file} failed its ${algorithm} check (got ${actual}, expected ${expected})`,
      );
  }
  await readModelHeader(part).catch((err) =>
    err instanceof InvalidModelError
      ? fail(`downloaded ${model.file} is not a usable model: ${err.message}`)
      : Promise.reject(err),
  );
}

async function hashFile(path: string, algorithm: 'sha256' | 'sha1'): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}
