/**
 * Where the parts of chunked uploads wait until complete: files in <dataDir>/chunked/<workspace>/<upload>/ when
 * blobs are files (the desktop, or a volume every node mounts), else blobs under workspaces/<id>/chunked/ (a
 * bucket), so a part PUT through one node and a complete through another see the same parts. Either way a part
 * is received into a local temp file, checked, and only then committed whole, replacing any earlier copy.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, rmdir, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { nanoid } from 'nanoid';
import type { Store } from '../../store/types.js';
import {
  assemblyPath,
  commitPart,
  partSizesOnDisk,
  reassemble,
  receivePart,
  removeStaleTemps,
  type Tee,
} from './part-files.js';

export type ReceivedPart = {
  size: number;
  sha256: string;
  teed: boolean;
  commit(): Promise<void>;
  discard(): Promise<void>;
};

export interface PartStore {
  /** Assembly file for the in-order fast path (uploads.ts); only where parts are local files. */
  assemblyOf?(workspaceId: string, id: string): string;
  prepare(workspaceId: string, id: string): Promise<void>;
  receive(
    workspaceId: string,
    id: string,
    index: number,
    body: IncomingMessage,
    expected: number,
    tee?: Tee,
  ): Promise<ReceivedPart>;
  /** Sizes of the committed parts, by index. */
  sizes(workspaceId: string, id: string, partCount: number): Promise<Map<number, number>>;
  /** Parts `from`..n-1 appended to `target` (a new file unless `resume`): the whole file's size and SHA-256. */
  join(
    workspaceId: string,
    id: string,
    partCount: number,
    target: string,
    resume?: Parameters<typeof reassemble>[3],
  ): Promise<{ size: number; sha256: string }>;
  remove(workspaceId: string, id: string): Promise<void>;
  removeWorkspace(workspaceId: string): Promise<void>;
  /** Temp files of receives a crash cut off (start-up only). */
  removeStaleTemps(workspaceId: string, id: string): Promise<void>;
  /** Uploads that have parts stored, with the time of the newest: the orphan sweep's candidates. */
  stored(
    workspacesWithRecords: string[],
  ): AsyncIterable<{ workspaceId: string; id: string; modifiedAt: number }>;
}

export function diskParts(partsRoot: string): PartStore {
  const dirOf = (workspaceId: string, id: string) => join(partsRoot, workspaceId, id);
  return {
    assemblyOf: (workspaceId, id) => assemblyPath(dirOf(workspaceId, id)),
    prepare: (workspaceId, id) => mkdir(dirOf(workspaceId, id), { recursive: true }).then(() => undefined),
    async receive(workspaceId, id, index, body, expected, tee) {
      const dir = dirOf(workspaceId, id);
      const part = await receivePart(body, dir, index, expected, tee);
      return {
        ...part,
        commit: () => commitPart(part.tmpPath, dir, index),
        discard: () => rm(part.tmpPath, { force: true }),
      };
    },
    sizes: (workspaceId, id, partCount) => partSizesOnDisk(dirOf(workspaceId, id), partCount),
    join: (workspaceId, id, partCount, target, resume) =>
      reassemble(dirOf(workspaceId, id), partCount, target, resume),
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
  /** A private temp directory per receive: receivePart names its temp file after the index. */
  const scratch = () => join(store.tmpDir, `part-${nanoid(12)}`);

  return {
    prepare: async () => {},
    async receive(workspaceId, id, index, body, expected) {
      const dir = scratch();
      await mkdir(dir, { recursive: true });
      try {
        const part = await receivePart(body, dir, index, expected);
        return {
          ...part,
          commit: () =>
            store.blobs
              .putFile(keyOf(workspaceId, id, index), part.tmpPath)
              .then(() => rm(dir, { recursive: true, force: true })),
          discard: () => rm(dir, { recursive: true, force: true }),
        };
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
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
    async join(workspaceId, id, partCount, target, resume) {
      const hash = resume?.hash ?? createHash('sha256');
      let size = resume?.size ?? 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      async function* parts() {
        for (let i = resume?.from ?? 0; i < partCount; i++) {
          const stream = await store.blobs.get(keyOf(workspaceId, id, i));
          if (!stream) throw new Error(`part ${i} of upload ${id} is gone`);
          for await (const chunk of stream) yield chunk as Buffer;
        }
      }
      try {
        await pipeline(parts, count, createWriteStream(target, { highWaterMark: 1 << 20 }));
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
      return { size, sha256: hash.digest('hex') };
    },
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
