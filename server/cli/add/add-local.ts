// `folio add <dir>` into a data folder or database: every file as an asset through the uploads service's
// `createFromFile` (the path chunked uploads and sync take, so the records are the ones an upload makes), in
// chunks whose SHA-256s are asked about in one query, created concurrently and committed a few dozen at a time.
// A file whose bytes the workspace already holds is skipped, so a second run after an interruption adds only
// what the first did not.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pMap from 'p-map';
import type { Config } from '../../config.js';
import { createAssetService } from '../../domains/assets/service.js';
import { createUploadService } from '../../domains/uploads/service.js';
import { workspacesCollection } from '../../domains/workspaces/collections.js';
import type { Store } from '../../store/types.js';
import { type FolderFile, folderFiles, type Walked } from './folder-files.js';
import type { createProgress } from './progress.js';

export type AddOptions = {
  dir: string;
  workspace?: string;
  tags: string[];
  progress: ReturnType<typeof createProgress>;
  log: (line: string) => void;
};

/** Files read, hashed and looked up together. */
const CHUNK = 512;
/** Files in flight at once: enough to keep the disk and the commits busy on two cores. */
const CONCURRENCY = 64;
/** Larger files are hashed as a stream and copied in, never held in memory. */
const IN_MEMORY_BYTES = 8 << 20;

type Read = FolderFile & { sha256: string; size: number; bytes?: Buffer };

export async function addLocal(store: Store, config: Config, options: AddOptions): Promise<Walked> {
  const workspaceId = await workspaceOf(store, options.workspace);
  const assets = createAssetService({ store, config });
  const uploads = createUploadService({ store, assets, maxBytes: config.limits.uploadBytes });
  const walked: Walked = { links: 0, others: 0 };
  const seen = new Set<string>();
  async function addChunk(files: FolderFile[]): Promise<void> {
    const read = (await pMap(files, (file) => readOne(file, options), { concurrency: CONCURRENCY })).filter(
      (file): file is Read => file !== undefined,
    );
    const held = await assets.withSha256s(workspaceId, [...new Set(read.map((file) => file.sha256))]);
    // Synchronously from here to the filter's end, so a chunk read meanwhile sees this one's files as seen.
    const fresh = read.filter((file) => {
      const known = held.has(file.sha256) || seen.has(file.sha256);
      seen.add(file.sha256);
      if (known) options.progress.tally.skipped++;
      return !known;
    });
    await pMap(fresh, (file) => createOne(file), { concurrency: CONCURRENCY });
  }

  async function createOne(file: Read): Promise<void> {
    try {
      const source = file.bytes ? { bytes: file.bytes } : { path: await copyIn(file.path) };
      await uploads.createFromFile(workspaceId, {
        ...source,
        filename: file.relative.split(/[\\/]/).pop()!,
        tags: options.tags.length ? options.tags : undefined,
        sha256: file.sha256,
        together: true,
      });
      options.progress.tally.added++;
      options.progress.tally.bytes += file.size;
    } catch (error) {
      failed(file, error, options);
    }
    options.progress.tick();
  }

  /** A copy the store may take (createFromFile moves the file it is given): the folder's own is left alone. */
  async function copyIn(path: string): Promise<string> {
    const copy = join(store.tmpDir, `add-${randomUUID()}`);
    await copyFile(path, copy);
    return copy;
  }

  // Two chunks at a time: one is read and hashed while the other's assets are created.
  await pMap(chunksOf(folderFiles(options.dir, walked), CHUNK), addChunk, { concurrency: 2 });
  return walked;
}

async function* chunksOf<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for await (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

async function readOne(file: FolderFile, options: AddOptions): Promise<Read | undefined> {
  try {
    const { size } = await stat(file.path);
    if (size <= IN_MEMORY_BYTES) {
      const bytes = await readFile(file.path);
      return { ...file, size, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    const hash = createHash('sha256');
    await pipeline(createReadStream(file.path), hash);
    return { ...file, size, sha256: hash.digest('hex') };
  } catch (error) {
    failed(file, error, options);
    return undefined;
  }
}

function failed(file: FolderFile, error: unknown, options: AddOptions): void {
  options.progress.tally.failed++;
  options.log(`${file.relative}: ${error instanceof Error ? error.message : String(error)}`);
}

/** The workspace named by id or name; without one, the only workspace there is, or the only personal one. */
async function workspaceOf(store: Store, wanted: string | undefined): Promise<string> {
  const all = await store.instance(workspacesCollection).all();
  const names = () => all.map((w) => `${w.name} (${w.id})`).join(', ') || 'none yet: start Folio once first';
  if (wanted !== undefined) {
    const found = all.filter((w) => w.id === wanted || w.name === wanted);
    if (found.length === 1) return found[0]!.id;
    throw new Error(
      found.length
        ? `More than one workspace is called '${wanted}': name it by id (${found.map((w) => w.id).join(', ')})`
        : `No workspace '${wanted}'. Workspaces: ${names()}`,
    );
  }
  const only = all.length === 1 ? all : all.filter((w) => w.personal);
  if (only.length === 1) return only[0]!.id;
  throw new Error(`Name the workspace with --workspace <id|name>. Workspaces: ${names()}`);
}
