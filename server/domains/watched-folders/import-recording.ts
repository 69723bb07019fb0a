/**
 * One settled file of a watched folder into its workspace: read without following a link, hashed, and imported only
 * if the workspace has never had this content (its SHA-256 is the row's id, so two events for one content, a rename
 * or a copy, find it taken). The bytes are copied into the store's temp folder and handed to the transcripts'
 * own path for files from another domain (queueFile): the user's file is only ever read.
 */
import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, rm } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StoreConflict } from '../../store/errors.js';
import type { Store } from '../../store/types.js';
import type { TranscriptService } from '../transcripts/service.js';
import { watchedFilesCollection } from './collections.js';
import type { WatchedFileRecord } from './schema.js';

export type ImportDeps = { store: Store; transcripts: TranscriptService; tmpDir: string };
export type FolderTarget = { id: string; root: string; workspaceId: string };
/** `imported`: a new content, queued; `known`: this content was imported before; `skipped`: not a file to import. */
export type Imported = { kind: 'imported'; row: WatchedFileRecord } | { kind: 'known' | 'skipped' };

export async function importRecording(
  deps: ImportDeps,
  folder: FolderTarget,
  path: string,
): Promise<Imported> {
  const name = relative(folder.root, path);
  if (!name || name.startsWith(`..${sep}`) || isAbsolute(name)) return { kind: 'skipped' };
  // O_NOFOLLOW: a file swapped for a link since chokidar looked is refused here (ELOOP), not read through
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!file) return { kind: 'skipped' }; // gone meanwhile, a link, or unreadable
  try {
    const stats = await file.stat();
    if (!stats.isFile() || stats.size === 0) return { kind: 'skipped' };
    const rows = deps.store.collection(watchedFilesCollection, folder.workspaceId);
    const seen = { folderId: folder.id, name, size: stats.size, mtimeMs: Math.trunc(stats.mtimeMs) };
    if (await rows.findOne(seen)) return { kind: 'known' }; // unchanged since it was imported: no need to hash
    const sha256 = await hashOf(file);
    const at = new Date().toISOString();
    const claimed = await rows
      .insert({ id: sha256, ...seen, status: 'importing', createdAt: at, updatedAt: at })
      .catch((error) => {
        if (error instanceof StoreConflict) return undefined;
        throw error;
      });
    if (!claimed) return { kind: 'known' };
    const tmpPath = await copyOf(file, deps.tmpDir, sha256).catch(async (error) => {
      await rows.remove(sha256); // changed while copied: its next settled size brings it back
      throw error;
    });
    const transcript = await deps.transcripts.queueFile(
      folder.workspaceId,
      { tmpPath, filename: basename(path), sha256 },
      { source: 'watched' },
    );
    const row = await rows.update(sha256, { status: 'queued', transcriptId: transcript.id, updatedAt: at });
    return row ? { kind: 'imported', row } : { kind: 'known' };
  } finally {
    await file.close();
  }
}

async function hashOf(file: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream('', { fd: file, start: 0, autoClose: false }), hash);
  return hash.digest('hex');
}

/** A copy in the store's temp folder, whose bytes must still hash to `sha256`. */
async function copyOf(file: FileHandle, tmpDir: string, sha256: string): Promise<string> {
  await mkdir(tmpDir, { recursive: true });
  const tmpPath = join(tmpDir, `watched-${randomUUID()}`);
  const hash = createHash('sha256');
  const tee = new PassThrough();
  tee.on('data', (chunk: Buffer) => hash.update(chunk));
  try {
    await pipeline(
      createReadStream('', { fd: file, start: 0, autoClose: false }),
      tee,
      createWriteStream(tmpPath),
    );
    if (hash.digest('hex') !== sha256) throw new Error('the file changed while it was read');
    return tmpPath;
  } catch (error) {
    await rm(tmpPath, { force: true });
    throw error;
  }
}
