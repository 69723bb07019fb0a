/**
 * Where the parts of chunked uploads wait until complete: files in <dataDir>/chunked/<workspace>/<upload>/ when
 * blobs are files (the desktop, or a volume every node mounts), else blobs under workspaces/<id>/chunked/ (a
 * bucket), so a part PUT through one node and a complete through another see the same parts. On disk every part
 * is written once, into one file at its offset (part-files.ts), and complete hands that file on as a link; in a
 * bucket a part is received into a local temp file, checked, and only then put whole, replacing any earlier copy.
 */
import type { Hash } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import { badRequest, conflict } from '../../../http/errors.js';
import { pipeIntoFile } from '../../../store/file/pipe-into-file.js';
import { Sha256Stream } from '../../../store/sha256-stream.js';
import type { Store } from '../../../store/types.js';
import { range } from './part-checks.js';
import {
  claimsIn,
  copyInto,
  createDataFile,
  createRangeClaims,
  dataPath,
  doneParts,
  hashFrom,
  hashPart,
  isDone,
  markDone,
  readyForPart,
  receiveInto,
  removeStaleTemps,
  unmark,
} from './part-files.js';
import type { ChunkedUploadRecord } from './schema.js';

export type ReceivedPart = {
  size: number;
  sha256: string;
  /** Makes the part the received one; then `discard` does nothing. */
  commit(): Promise<void>;
  /** Drops the part (safe to call more than once, and after commit). */
  discard(): Promise<void>;
};

/** Where part i lies: bytes i × partSize up to the next part or `size`. */
export type PartGeometry = Pick<ChunkedUploadRecord, 'id' | 'size' | 'partSize'>;

/** The hash of parts 0..from-1, fed as they arrived in order (assembly.ts). */
export type KnownPrefix = { from: number; hash: Hash };

export interface PartStore {
  /** Parts are written in place into one file (disk): a running hash of the in-order prefix spares a re-read. */
  ranged: boolean;
  prepare(workspaceId: string, id: string): Promise<void>;
  /** Receives part `index` (`running`: a copy of the whole-file hash, fed the same bytes). */
  receive(
    workspaceId: string,
    upload: ChunkedUploadRecord,
    index: number,
    body: IncomingMessage,
    expected: number,
    running?: Hash,
  ): Promise<ReceivedPart>;
  /** Ranged stores: reads part `index` as stored into `hash`, answering that part's own SHA-256. */
  hashPart?(workspaceId: string, upload: PartGeometry, index: number, hash: Hash): Promise<string>;
  /** Sizes of the parts stored, by index. */
  sizes(workspaceId: string, id: string, partCount: number): Promise<Map<number, number>>;
  /** The whole file at `target` with its size and SHA-256; the parts stay until `remove`. */
  join(
    workspaceId: string,
    upload: ChunkedUploadRecord,
    target: string,
    known?: KnownPrefix,
  ): Promise<{ size: number; sha256: string }>;
  /** After a failed complete: parts received later must not change a file the complete handed on. */
  detach(workspaceId: string, id: string): Promise<void>;
  remove(workspaceId: string, id: string): Promise<void>;
  removeWorkspace(workspaceId: string): Promise<void>;
  /** Temp files of receives a crash cut off (start-up only). */
  removeStaleTemps(workspaceId: string, id: string): Promise<void>;
  /** Uploads that have parts stored, with the time of the newest: the orphan sweep's candidates. */
  stored(
    workspacesWithRecords: string[],
  ): AsyncIterable<{ workspaceId: string; id: string; modifiedAt: number }>;
}

/** `commit` and `discard` settle a receive once, whichever comes first. */
function settleOnce(
  part: { size: number; sha256: string },
  commit: () => Promise<void>,
  discard: () => Promise<void>,
): ReceivedPart {
  let settled = false;
  const once = (fn: () => Promise<void>) => async () => {
    if (settled) return;
    settled = true;
    await fn();
  };
  return { ...part, commit: once(commit), discard: once(discard) };
}

/** A re-send of a received part: into a temp file, and over the part's range only at commit. */
async function receiveAgain(
  dir: string,
  index: number,
  start: number,
  { body, expected, running }: { body: IncomingMessage; expected: number; running?: Hash },
  release: () => Promise<void>,
): Promise<ReceivedPart> {
  const tmp = join(dir, `${index}.${nanoid(8)}.tmp`);
  const drop = () => rm(tmp, { force: true }).finally(release);
  const part = await receiveInto(body, { path: tmp, start: 0 }, index, expected, running).catch(
    async (error) => {
      await rm(tmp, { force: true });
      throw error;
    },
  );
  const commit = async () => {
    await copyInto(tmp, await readyForPart(dir, index), start);
    await markDone(dir, index, part);
  };
  return settleOnce(part, () => commit().finally(drop), drop);
}

export function diskParts(partsRoot: string): PartStore {
  const dirOf = (workspaceId: string, id: string) => join(partsRoot, workspaceId, id);
  const claim = createRangeClaims();
  return {
    ranged: true,
    async prepare(workspaceId, id) {
      await mkdir(dirOf(workspaceId, id), { recursive: true });
      await createDataFile(dirOf(workspaceId, id));
    },
    async receive(workspaceId, upload, index, body, expected, running) {
      const dir = dirOf(workspaceId, upload.id);
      const start = index * upload.partSize;
      const release = await claim(dir, index);
      try {
        if (await isDone(dir, index))
          return await receiveAgain(dir, index, start, { body, expected, running }, release);
        const path = await readyForPart(dir, index);
        const part = await receiveInto(body, { path, start, inPlace: true }, index, expected, running);
        return settleOnce(part, () => markDone(dir, index, part).finally(release), release);
      } catch (error) {
        await release();
        throw error;
      }
    },
    hashPart: (workspaceId, upload, index, hash) =>
      hashPart(dirOf(workspaceId, upload.id), upload, index, hash),
    async sizes(workspaceId, id) {
      const done = await doneParts(dirOf(workspaceId, id));
      return new Map([...done].map(([i, part]) => [i, part.size]));
    },
    async join(workspaceId, upload, target, known) {
      const dir = dirOf(workspaceId, upload.id);
      const from = known?.from ?? 0;
      const { sha256, wrong } =
        from === upload.partCount
          ? { sha256: known!.hash.digest('hex'), wrong: [] }
          : await hashFrom(dir, upload, from, known?.hash);
      if (wrong.length) {
        await unmark(dir, wrong);
        throw badRequest(
          `Parts ${wrong.join(', ')} do not hold the bytes they were received with (another request wrote over them); send them again`,
          { missingParts: wrong },
        );
      }
      // A second name, not a copy: the parts stay whole until the complete succeeds and removes them, and a part
      // PUT readying the file from now on sees the link and is refused (readyForPart).
      await link(dataPath(dir), target);
      const now = await doneParts(dir);
      const changed = range(upload.partCount).some((i) => now.get(i)?.sha256 !== upload.parts[i]?.sha256);
      if (changed || (await claimsIn(dir)).length) {
        await rm(target, { force: true });
        throw conflict('A part was sent again while completing; complete again once it is in');
      }
      return { size: (await stat(target)).size, sha256 };
    },
    async detach(workspaceId, id) {
      const path = dataPath(dirOf(workspaceId, id));
      const info = await stat(path).catch(() => undefined);
      if (!info || info.nlink < 2) return;
      const copy = `${path}.${nanoid(8)}.tmp`;
      await copyFile(path, copy);
      await rename(copy, path);
    },
    remove: (workspaceId, id) => rm(dirOf(workspaceId, id), { recursive: true, force: true }),
    removeWorkspace: (workspaceId) => rm(join(partsRoot, workspaceId), { recursive: true, force: true }),
    removeStaleTemps: (workspaceId, id) => removeStaleTemps(dirOf(workspaceId, id)),
    async *stored() {
      for (const workspaceId of await readdir(partsRoot).catch(() => [] as string[])) {
        for (const id of await readdir(join(partsRoot, workspaceId)).catch(() => [] as string[])) {
          const info = await stat(dirOf(workspaceId, id)).catch(() => undefined);
          yield { workspaceId, id, modifiedAt: info?.mtimeMs ?? 0 };
        }
        await rmdir(join(partsRoot, workspaceId)).catch(() => undefined); // only if now empty
      }
    },
  };
}

export function blobParts(store: Store): PartStore {
  const prefixOf = (workspaceId: string, id: string) => `workspaces/${workspaceId}/chunked/${id}`;
  const keyOf = (workspaceId: string, id: string, index: number) => `${prefixOf(workspaceId, id)}/${index}`;
  /** A private temp directory per receive, removed once the part is in the bucket or dropped. */
  const scratch = () => join(store.tmpDir, `part-${nanoid(12)}`);

  return {
    ranged: false,
    prepare: async () => {},
    async receive(workspaceId, upload, index, body, expected) {
      const dir = scratch();
      await mkdir(dir, { recursive: true });
      const path = join(dir, `${index}.tmp`);
      const drop = () => rm(dir, { recursive: true, force: true });
      try {
        const part = await receiveInto(body, { path, start: 0 }, index, expected);
        const commit = () => store.blobs.putFile(keyOf(workspaceId, upload.id, index), path).then(drop);
        return settleOnce(part, commit, drop);
      } catch (error) {
        await drop();
        throw error;
      }
    },
    async sizes(workspaceId, id) {
      const sizes = new Map<number, number>();
      for await (const blob of store.blobs.list(prefixOf(workspaceId, id))) {
        const index = blob.key.slice(blob.key.lastIndexOf('/') + 1);
        if (/^\d+$/.test(index)) sizes.set(Number(index), blob.size);
      }
      return sizes;
    },
    async join(workspaceId, upload, target) {
      const count = new Sha256Stream();
      async function* parts() {
        for (let i = 0; i < upload.partCount; i++) {
          const stream = await store.blobs.get(keyOf(workspaceId, upload.id, i));
          if (!stream) throw new Error(`part ${i} of upload ${upload.id} is gone`);
          for await (const chunk of stream) yield chunk as Buffer;
        }
      }
      try {
        await pipeIntoFile(target, (out) => pipeline(parts, count, out), { highWaterMark: 1 << 20 });
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
      return { size: count.bytes, sha256: count.digest() };
    },
    detach: async () => {}, // the joined file is a copy
    remove: (workspaceId, id) => store.blobs.deletePrefix(prefixOf(workspaceId, id)),
    removeWorkspace: (workspaceId) => store.blobs.deletePrefix(`workspaces/${workspaceId}/chunked`),
    removeStaleTemps: async () => {}, // receives happen in the node's scratch directory, emptied at start
    async *stored(workspaces) {
      for (const workspaceId of workspaces) {
        const newest = new Map<string, number>();
        for await (const blob of store.blobs.list(`workspaces/${workspaceId}/chunked`)) {
          const id = blob.key.split('/')[3];
          if (id) newest.set(id, Math.max(newest.get(id) ?? 0, blob.modifiedAt.getTime()));
        }
        for (const [id, modifiedAt] of newest) yield { workspaceId, id, modifiedAt };
      }
    },
  };
}

/** Parts beside file blobs when blobs are files, else in the blob store. */
export function partStoreFor(store: Store, partsRoot: string): PartStore {
  return store.blobs.pathOf('workspaces/probe/chunked/probe/0') ? diskParts(partsRoot) : blobParts(store);
}
