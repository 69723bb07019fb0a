/**
 * Bytes of a chunked upload on disk: each part streams to its own temp file and is renamed into place only when
 * whole and verified, so concurrent re-sends of one index never mix (the last rename wins with one whole body).
 * Reassembly streams the parts, in order, into one file while hashing: nothing is held in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import { badRequest, payloadTooLarge } from '../../../http/errors.js';

export const partPath = (dir: string, index: number) => join(dir, `${index}.part`);

/** Streams `body` to a temp file beside the part; resolves with it once exactly `expected` bytes came. */
export async function receivePart(
  body: Readable,
  dir: string,
  index: number,
  expected: number,
): Promise<{ tmpPath: string; size: number; sha256: string }> {
  const tmpPath = join(dir, `${index}.${nanoid(10)}.tmp`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > expected)
        return done(payloadTooLarge(`Part ${index} must be exactly ${expected} bytes; more were sent`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, meter, createWriteStream(tmpPath, { highWaterMark: 1 << 20 }));
    if (size !== expected)
      throw badRequest(`Part ${index} must be exactly ${expected} bytes; ${size} were sent`);
    return { tmpPath, size, sha256: hash.digest('hex') };
  } catch (error) {
    body.resume(); // drain what the client still sends so it reads our answer
    await rm(tmpPath, { force: true });
    if (
      (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      (error as Error).message === 'aborted'
    )
      throw badRequest(`Part ${index} was cut off before all its bytes arrived`);
    throw error;
  }
}

/** Atomic replace: readers and other writers see the old part or the new one, never a mix. */
export const commitPart = (tmpPath: string, dir: string, index: number) =>
  rename(tmpPath, partPath(dir, index));

/** Sizes of the parts on disk, by index (what complete checks, whatever the record says). */
export async function partSizesOnDisk(dir: string, partCount: number): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  for (let i = 0; i < partCount; i++) {
    const size = await stat(partPath(dir, i)).then(
      (s) => s.size,
      () => undefined,
    );
    if (size !== undefined) sizes.set(i, size);
  }
  return sizes;
}

/** Concatenates parts 0..n-1 into `target`; resolves with the whole file's size and sha256. */
export async function reassemble(
  dir: string,
  partCount: number,
  target: string,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const out = createWriteStream(target, { highWaterMark: 1 << 20 });
  async function* parts() {
    for (let i = 0; i < partCount; i++) {
      for await (const chunk of createReadStream(partPath(dir, i), { highWaterMark: 1 << 20 })) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    }
  }
  try {
    await pipeline(parts, out);
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Temp files of parts whose PUT never finished (a crash): only safe to call when no PUT is in flight. */
export async function removeStaleTemps(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[]))
    if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
}
