// A blob as a local file that a record writer may move into place without taking the blob itself: a hard link
// where the store keeps files (no copy), else the temporary copy the store makes.
import { link, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nanoid } from 'nanoid';
import type { Store } from '../../store/types.js';
import type { BlobFile } from './kinds/types.js';

export async function blobAsFile(
  store: Store,
  key: string,
  dir = store.tmpDir,
): Promise<BlobFile | undefined> {
  const own = store.blobs.pathOf(key);
  if (!own) return store.blobs.localFile(key);
  const path = join(dir, `sync-${nanoid(10)}`);
  const linked = await link(own, path).then(
    () => true,
    () => false,
  );
  return linked ? { path, release: () => rm(path, { force: true }) } : undefined;
}
