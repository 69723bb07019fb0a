/**
 * Bytes of a chunked upload on disk: each part streams to its own temp file and is renamed into place only when
 * whole and verified, so concurrent re-sends of one index never mix (the last rename wins with one whole body).
 * Fast path: a part that arrives in order can also be teed, from the same stream pass, into the upload's assembly
 * file at its offset and into a copy of the running whole-file hash (see uploads.ts); the copy only replaces the
 * running hash once the part is verified and committed.
 * Reassembly (the fallback) streams the parts, in order, into one file while hashing: nothing is held in memory.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import { badRequest, payloadTooLarge } from '../../http/errors.js';

export const partPath = (dir: string, index: number) => join(dir, `${index}.part`);
/** Ends in .tmp: a start-up sweep removes it with the other leftovers (the in-memory hash did not survive). */
export const assemblyPath = (dir: string) => join(dir, 'assembly.tmp');

/** Where a teed part goes: `path` at byte `start`, and `hash` (a copy of the running whole-file hash). */
export type Tee = { path: string; start: number; hash: Hash };

/**
 * Streams `body` to a temp file beside the part; resolves with it once exactly `expected` bytes came. With `tee`,
 * the same chunks are also written to `tee.path` at `tee.start` and fed to `tee.hash`; `teed` says whether all of
 * them landed (a failed assembly write never fails the part, it only loses the fast path).
 */
export async function receivePart(
  body: Readable,
  dir: string,
  index: number,
  expected: number,
  tee?: Tee,
): Promise<{ tmpPath: string; size: number; sha256: string; teed: boolean }> {
  const tmpPath = join(dir, `${index}.${nanoid(10)}.tmp`);
  const hash = createHash('sha256');
  let size = 0;
  let side: WriteStream | undefined;
  let sideFailed = false;
  if (tee) {
    side = createWriteStream(tee.path, {
      flags: tee.start === 0 ? 'w' : 'r+',
      start: tee.start,
      highWaterMark: 4 << 20,
    });
    side.on('error', () => {
      sideFailed = true;
    });
  }
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > expected)
        return done(payloadTooLarge(`Part ${index} must be exactly ${expected} bytes; more were sent`));
      hash.update(chunk);
      if (!side || sideFailed) return done(null, chunk);
      tee!.hash.update(chunk);
      if (side.write(chunk)) return done(null, chunk);
      // backpressure from the assembly file: go on when it drains (or fails: then without it)
      const go = () => {
        side!.off('drain', go);
        side!.off('error', go);
        done(null, chunk);
      };
      side.on('drain', go);
      side.on('error', go);
    },
  });
  // Piped rather than given to pipeline(), which destroys its source on error: the request must stay readable
  // so the rest of its body can be drained after the answer (http/drain-request.ts).
  body.pipe(meter);
  const stopWatching = finished(body, (error) => error && meter.destroy(error));
  try {
    await pipeline(meter, createWriteStream(tmpPath, { highWaterMark: 1 << 20 }));
    if (size !== expected)
      throw badRequest(`Part ${index} must be exactly ${expected} bytes; ${size} were sent`);
    const teed = side ? await finishSide(side, () => sideFailed) : false;
    return { tmpPath, size, sha256: hash.digest('hex'), teed };
  } catch (error) {
    if (side) await finishSide(side, () => sideFailed);
    await rm(tmpPath, { force: true });
    if (
      (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      (error as Error).message === 'aborted'
    )
      throw badRequest(`Part ${index} was cut off before all its bytes arrived`);
    throw error;
  } finally {
    stopWatching();
    body.unpipe(meter);
  }
}

/** Ends the assembly write stream; true when every byte was written and the file closed without error. */
function finishSide(side: WriteStream, failed: () => boolean): Promise<boolean> {
  if (side.destroyed) return Promise.resolve(!failed() && side.writableFinished);
  return new Promise((resolve) => {
    side.once('close', () => resolve(!failed()));
    side.end();
  });
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

/**
 * Concatenates parts `from`..n-1 into `target`; resolves with the whole file's size and sha256. By default from
 * part 0 into a new file; `resume` continues an assembly file that already holds parts 0..from-1 (`size` bytes,
 * hashed into `hash`), writing from its end.
 */
export async function reassemble(
  dir: string,
  partCount: number,
  target: string,
  resume?: { from: number; size: number; hash: Hash },
): Promise<{ size: number; sha256: string }> {
  const hash = resume?.hash ?? createHash('sha256');
  let size = resume?.size ?? 0;
  const out = createWriteStream(
    target,
    resume ? { flags: 'r+', start: resume.size, highWaterMark: 1 << 20 } : { highWaterMark: 1 << 20 },
  );
  async function* parts() {
    for (let i = resume?.from ?? 0; i < partCount; i++) {
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
