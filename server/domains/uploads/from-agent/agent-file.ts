// The bytes a tool works on, as a temp file the asset store can take over: sent inline as base64, or read from a
// local path inside a folder the owner allowed (--agent-file-root). A path is checked as written and again after
// symlinks are resolved, so neither `..` nor a link leads out, and nothing outside is even stat'ed first.
import { constants, createReadStream } from 'node:fs';
import { open, realpath, rm, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import { z } from 'zod';
import { badRequest, forbidden, notFound, payloadTooLarge } from '../../../http/errors.js';
import { pipeIntoFile } from '../../../store/file/pipe-into-file.js';

export const FileSource = {
  path: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('Absolute path of a file on this machine, inside a folder the owner allowed for agents'),
  contentBase64: z.base64().optional().describe('The file bytes, base64-encoded (for small files)'),
  filename: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('File name to keep (required with contentBase64; defaults to the path’s name)'),
};

type Source = { path?: string; contentBase64?: string; filename?: string };

export const exactlyOneSource = (args: Source) =>
  (args.path === undefined) !== (args.contentBase64 === undefined) &&
  (args.contentBase64 === undefined || args.filename !== undefined);
export const SOURCE_MESSAGE = 'send either path, or contentBase64 with filename';

export type FileLimits = {
  roots: string[];
  tmpDir: string;
  maxBytes: number;
  signal?: AbortSignal;
  /** Bytes copied so far, and the file's size. */
  onProgress?: (copied: number, size: number) => void;
};

/** A temp file with the source's bytes; the caller owns it (and removes it if it does not hand it on). */
export async function receiveSource(source: Source, limits: FileLimits) {
  if (source.contentBase64 !== undefined) {
    const bytes = Buffer.from(source.contentBase64, 'base64');
    if (bytes.length > limits.maxBytes)
      throw payloadTooLarge(`The file is larger than ${limits.maxBytes} bytes`);
    const tmpPath = join(limits.tmpDir, `mcp-${nanoid(12)}`);
    await writeFile(tmpPath, bytes);
    return { tmpPath, filename: source.filename ?? 'upload', size: bytes.length };
  }
  return copyAllowedFile(source.path ?? '', limits);
}

async function copyAllowedFile(path: string, limits: FileLimits) {
  const real = await allowedPath(path, limits.roots);
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
    throw notFound('File');
  });
  const tmpPath = join(limits.tmpDir, `mcp-${nanoid(12)}`);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw badRequest(`${path} is not a regular file`);
    if (stat.size > limits.maxBytes) throw payloadTooLarge(`${path} is larger than ${limits.maxBytes} bytes`);
    let copied = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        copied += chunk.length;
        limits.onProgress?.(copied, stat.size);
        done(null, chunk);
      },
    });
    const input = createReadStream('', { fd: handle.fd, autoClose: false });
    await pipeIntoFile(tmpPath, (out) => pipeline(input, meter, out, { signal: limits.signal }));
    return { tmpPath, filename: basename(real), size: copied };
  } catch (error) {
    await rm(tmpPath, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

async function allowedPath(path: string, roots: string[]): Promise<string> {
  if (roots.length === 0)
    throw forbidden(
      'Reading local files is turned off: the owner can allow folders with --agent-file-root (FOLIO_AGENT_FILE_ROOTS); or send the bytes as contentBase64',
    );
  if (!isAbsolute(path)) throw badRequest('path must be absolute');
  const outside = () =>
    forbidden(`${path} is outside the folders the owner allowed for agents: ${roots.join(', ')}`);
  if (!roots.some((root) => isInside(resolve(root), resolve(path)))) throw outside();
  const real = await realpath(path).catch(() => {
    throw notFound('File');
  });
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => undefined)));
  if (!realRoots.some((root) => root && isInside(root, real))) throw outside();
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Runs `use`, which takes ownership of the temp file; if it fails first, the file is removed here. */
export async function ownedBy<T>(tmpPath: string, use: () => Promise<T>): Promise<T> {
  try {
    return await use();
  } catch (error) {
    await rm(tmpPath, { force: true });
    throw error;
  }
}
