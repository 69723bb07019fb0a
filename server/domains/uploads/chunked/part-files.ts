/**
 * Bytes of a chunked upload on disk, written once: every part streams straight into one file, `parts.bin`, at its
 * offset (index × partSize), so once the last part is in, the file is the whole upload; complete links it out
 * instead of copying. A re-send of a part already received goes to a temp file first and is copied over its range
 * only once whole and checked, so a bad or cut-off re-send leaves the earlier part as it was. `<index>.done` (written by rename once the part is whole and verified: `{ size, sha256 }`)
 * says a part's range holds that part; it is removed before a part's range is written again, so a re-send cut off
 * midway, or killed, leaves the part missing, never a mix passed off as received. One writer per index at a time:
 * in this process a queue, across processes sharing the volume `<index>.writing.tmp`, made exclusively.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import { badRequest, conflict, payloadTooLarge } from '../../../http/errors.js';
import { pipeIntoFile } from '../../../store/file/pipe-into-file.js';
import { Sha256Stream } from '../../../store/sha256-stream.js';

/** The upload's bytes, each part at its offset. Not a `.tmp`: it survives a restart, as parts always have. */
export const dataPath = (dir: string) => join(dir, 'parts.bin');
const donePath = (dir: string, index: number) => join(dir, `${index}.done`);
/** Ends in .tmp: the start-up sweep removes the claims of PUTs a crash cut off. */
const claimPath = (dir: string, index: number) => join(dir, `${index}.writing.tmp`);

/** Where a part's bytes go: byte `start` of the file at `path`, which exists (`inPlace`) or is made anew. */
export type Target = { path: string; start: number; inPlace?: boolean };

/**
 * Streams `body` into `target`, hashing it; resolves once exactly `expected` bytes came. `running` (a copy of the
 * upload's whole-file hash, for a part that is next in order) is fed the same chunks in the same pass.
 */
export async function receiveInto(
  body: Readable,
  target: Target,
  index: number,
  expected: number,
  running?: Hash,
): Promise<{ size: number; sha256: string }> {
  const meter = new Sha256Stream({
    maxBytes: expected,
    overLimit: () => payloadTooLarge(`Part ${index} must be exactly ${expected} bytes; more were sent`),
    alongside: running,
  });
  // Piped rather than given to pipeline(), which destroys its source on error: the request must stay readable
  // so the rest of its body can be drained after the answer (http/drain-request.ts).
  body.pipe(meter);
  const stopWatching = finished(body, (error) => error && meter.destroy(error));
  try {
    const options = { start: target.start, highWaterMark: 1 << 20 };
    const flags = target.inPlace ? 'r+' : 'w';
    await pipeIntoFile(target.path, (out) => pipeline(meter, out), { ...options, flags });
    if (meter.bytes !== expected)
      throw badRequest(`Part ${index} must be exactly ${expected} bytes; ${meter.bytes} were sent`);
    return { size: meter.bytes, sha256: meter.digest() };
  } catch (error) {
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

/** Creates the upload's empty data file (parts are written into it at their offsets). */
export const createDataFile = (dir: string) => writeFile(dataPath(dir), '', { flag: 'a' });

/**
 * Readies the data file for writing part `index` (under its claim; the part counts as missing from now until it
 * is done), unless a complete has linked it out (a second name: it is becoming, or became, an asset's bytes) and a
 * part written now would change them: then 409. A complete that links it after this check sees the claim and
 * gives up instead (part-store.ts `join`).
 */
export async function readyForPart(dir: string, index: number): Promise<string> {
  const path = dataPath(dir);
  if ((await stat(path)).nlink > 1)
    throw conflict(
      `Part ${index} arrived while the upload is being completed; send it again if complete fails`,
    );
  await rm(donePath(dir, index), { force: true }); // its range is about to change: not received until done
  return path;
}

/** Part writes under way (their claims): a complete that sees one cannot trust the file it linked. */
export async function claimsIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.writing.tmp'));
}

/** One writer of a part's range: waits for this process's other writer, refuses another process's (409). */
export function createRangeClaims() {
  const tails = new Map<string, Promise<void>>();

  return async function claim(dir: string, index: number): Promise<() => Promise<void>> {
    const key = claimPath(dir, index);
    const previous = tails.get(key) ?? Promise.resolve();
    let free!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (free = resolve)));
    tails.set(key, tail);
    await previous;
    const release = async () => {
      free();
      if (tails.get(key) === tail) tails.delete(key);
    };
    try {
      await (await open(key, 'wx')).close();
    } catch (error) {
      await release();
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw conflict(`Part ${index} is being received by another request; send it again in a moment`);
      throw error;
    }
    return async () => {
      await rm(key, { force: true });
      await release();
    };
  };
}

/** Whether part `index` is received (its range holds it). */
export const isDone = (dir: string, index: number) =>
  stat(donePath(dir, index)).then(
    () => true,
    () => false,
  );

/** Copies a re-sent part, received whole and checked in `tmp`, over its range of the data file at `path`. */
export async function copyInto(tmp: string, path: string, start: number): Promise<void> {
  const source = createReadStream(tmp, { highWaterMark: 1 << 20 });
  await pipeIntoFile(path, (out) => pipeline(source, out), { flags: 'r+', start, highWaterMark: 1 << 20 });
}

/** Marks part `index` as received with these bytes: atomic, so a reader sees the marker whole or not at all. */
export async function markDone(dir: string, index: number, part: { size: number; sha256: string }) {
  const tmp = join(dir, `${index}.${nanoid(8)}.tmp`);
  await writeFile(tmp, JSON.stringify(part));
  await rename(tmp, donePath(dir, index));
}

/** Parts whose range holds them, by index: `{ size, sha256 }` as received. */
export async function doneParts(dir: string): Promise<Map<number, { size: number; sha256: string }>> {
  const done = new Map<number, { size: number; sha256: string }>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = /^(\d+)\.done$/.exec(name);
    if (!match) continue;
    const part = await readFile(join(dir, name), 'utf8').then(JSON.parse, () => undefined);
    if (part) done.set(Number(match[1]), part);
  }
  return done;
}

/** Forgets parts whose range turned out not to hold them (complete found other bytes there). */
export const unmark = (dir: string, indexes: number[]) =>
  Promise.all(indexes.map((i) => rm(donePath(dir, i), { force: true })));

/**
 * Reads the data file from part `from` to the end once, continuing `hash` (which holds parts 0..from-1) and
 * checking each part read against the SHA-256 it was received with; resolves with the whole file's SHA-256 and
 * the parts whose range holds other bytes (another writer on a shared volume).
 */
export async function hashFrom(
  dir: string,
  upload: { size: number; partSize: number; partCount: number; parts: Record<string, { sha256: string }> },
  from: number,
  hash: Hash = createHash('sha256'),
): Promise<{ sha256: string; wrong: number[] }> {
  const wrong: number[] = [];
  for (let i = from; i < upload.partCount; i++)
    if ((await hashPart(dir, upload, i, hash)) !== upload.parts[i]?.sha256) wrong.push(i);
  return { sha256: hash.digest('hex'), wrong };
}

/** Reads part `index`'s range of the data file into `hash`; resolves with the SHA-256 of that range alone. */
export async function hashPart(
  dir: string,
  { size, partSize }: { size: number; partSize: number },
  index: number,
  hash: Hash,
): Promise<string> {
  const part = createHash('sha256');
  const range = { start: index * partSize, end: Math.min(size, (index + 1) * partSize) - 1 };
  for await (const chunk of createReadStream(dataPath(dir), { ...range, highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    part.update(chunk as Buffer);
  }
  return part.digest('hex');
}

/** Temp files of receives a crash cut off and claims they held: only safe to call when no PUT is in flight. */
export async function removeStaleTemps(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[]))
    if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
}
