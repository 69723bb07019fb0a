// Blobs as files under the data directory: the key is the relative path. Writes go to tmp/ first, are fsynced,
// then renamed into place, so a reader or a crash sees the whole old file or the whole new one.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, opendir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey } from '../blob-key.js';
import { asStorageFailure } from '../errors.js';
import { type ScopeGate, workspaceOfKey } from '../scope-gate.js';
import { Sha256Stream } from '../sha256-stream.js';
import type { BlobInfo, BlobStore } from '../types.js';
import { createDirSyncer } from './durable-file.js';
import { type FaultInjector, injectedError, type WriteStep } from './faults.js';
import { pipeIntoFile } from './pipe-into-file.js';

export type FileBlobOptions = {
  root: string;
  tmpDir: string;
  fsync: boolean;
  gate: ScopeGate;
  faults?: FaultInjector;
};

export function createFileBlobs({ root, tmpDir, fsync, gate, faults }: FileBlobOptions): BlobStore {
  const syncDirShared = createDirSyncer();
  function pathOf(key: string): string {
    return join(root, assertBlobKey(key));
  }

  async function guarded<T>(key: string, write: () => Promise<T>): Promise<T> {
    const scope = workspaceOfKey(key);
    const leave = scope ? gate.enter(scope) : () => {};
    try {
      return await write();
    } catch (error) {
      throw asStorageFailure(error);
    } finally {
      leave();
    }
  }

  function checkFault(op: WriteStep['op'], path: string): void {
    const fault = faults?.({ op, path });
    if (fault) throw injectedError(fault, { op, path });
  }

  /** fsyncs `path` (unless `synced`: written and fsynced through its own handle), then renames it to `key`. */
  async function moveInto(key: string, path: string, { synced = false } = {}): Promise<void> {
    const target = pathOf(key);
    checkFault('blob-move', target);
    if (fsync && !synced) {
      const handle = await open(path, 'r+');
      await handle.datasync().finally(() => handle.close());
    }
    await renameInto(path, target);
    if (fsync) await syncDirShared(dirname(target));
  }

  /** A buffer (a small blob held whole) is written, fsynced and closed through one handle, then renamed in. */
  async function putBytes(key: string, bytes: Buffer): Promise<{ size: number; sha256: string }> {
    const tmp = join(tmpDir, `blob-${randomUUID()}`);
    try {
      checkFault('blob-write', tmp);
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(bytes);
        if (fsync) await handle.datasync();
      } finally {
        await handle.close();
      }
      await moveInto(key, tmp, { synced: true });
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async function statKey(key: string): Promise<BlobInfo | undefined> {
    const info = await stat(pathOf(key)).catch(() => undefined);
    return info?.isFile() ? { key, size: info.size, modifiedAt: info.mtime } : undefined;
  }

  return {
    pathOf,
    async put(key, source) {
      if (Buffer.isBuffer(source)) return guarded(key, () => putBytes(key, source));
      const tmp = join(tmpDir, `blob-${randomUUID()}`);
      const count = new Sha256Stream();
      return guarded(key, async () => {
        try {
          checkFault('blob-write', tmp);
          await pipeIntoFile(tmp, (out) => pipeline(source, count, out));
          await moveInto(key, tmp);
        } catch (error) {
          await rm(tmp, { force: true });
          throw error;
        }
        return { size: count.bytes, sha256: count.digest() };
      });
    },
    async putFile(key, path) {
      return guarded(key, async () => {
        const { size } = await stat(path);
        await moveInto(key, path);
        return { size };
      });
    },
    async get(key, range) {
      const path = pathOf(key);
      const handle = await open(path, 'r').catch((error) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (!handle) return undefined;
      return createReadStream('', { fd: handle, start: range?.start, end: range?.end });
    },
    stat: statKey,
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      await rm(pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    list(prefix) {
      return walk(root, prefix.replace(/\/$/, ''));
    },
    keys(prefix) {
      return walkKeys(root, prefix.replace(/\/$/, ''));
    },
    async localFile(key) {
      const info = await statKey(key);
      return info && { path: pathOf(key), release: async () => {} };
    },
  };
}

async function* walk(root: string, prefix: string): AsyncIterable<BlobInfo> {
  const dir = await opendir(join(root, prefix)).catch(() => undefined);
  if (!dir) return;
  for await (const entry of dir) {
    const key = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(root, key);
    else if (entry.isFile()) {
      const info = await stat(join(root, key)).catch(() => undefined);
      if (info) yield { key, size: info.size, modifiedAt: info.mtime };
    }
  }
}

/** One listing per directory, read in batches of its files' keys (the directories' own after them). */
async function* walkKeys(root: string, prefix: string): AsyncIterable<string[]> {
  const dir = await opendir(join(root, prefix), { bufferSize: 1024 }).catch(() => undefined);
  if (!dir) return;
  const subdirectories: string[] = [];
  const batch: string[] = [];
  for await (const entry of dir) {
    if (entry.isDirectory()) subdirectories.push(`${prefix}/${entry.name}`);
    else if (entry.isFile()) batch.push(`${prefix}/${entry.name}`);
    if (batch.length === 1000) yield batch.splice(0);
  }
  if (batch.length) yield batch;
  for (const subdirectory of subdirectories) yield* walkKeys(root, subdirectory);
}

/**
 * rename(2) into `target`, making its directory only when the rename finds it missing (it usually exists: one per
 * workspace's files), and copying a file from another file system.
 */
async function renameInto(path: string, target: string, makeDir = true): Promise<void> {
  try {
    await rename(path, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && makeDir) {
      await mkdir(dirname(target), { recursive: true });
      return renameInto(path, target, false);
    }
    if (code !== 'EXDEV') throw error;
    await copyFile(path, target);
    await rm(path, { force: true });
  }
}
