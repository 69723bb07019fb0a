// The files under a folder, depth first in name order, without following a symbolic link anywhere: a link may
// point out of the folder (or round into itself), so links are counted and left alone.
import { opendir } from 'node:fs/promises';
import { join, relative } from 'node:path';

export type FolderFile = { path: string; relative: string };
export type Walked = { links: number; others: number };

/** Yields every regular file under `root`; `walked` counts what was passed over (links, sockets, devices). */
export async function* folderFiles(root: string, walked: Walked): AsyncGenerator<FolderFile> {
  const entries = [];
  for await (const entry of await opendir(root)) entries.push(entry);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) walked.links++;
    else if (entry.isDirectory()) yield* folderFiles(path, walked);
    else if (entry.isFile()) yield { path, relative: relative(root, path) };
    else walked.others++;
  }
}
