// `folio export <dir>`: every record and blob of an instance into an archive directory (archive.ts), each blob's
// SHA-256 computed as it is written, so an import can prove it brought back the same bytes.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Sha256Stream } from '../store/sha256-stream.js';
import type { Store } from '../store/types.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type BlobEntry,
  blobFile,
  hashFile,
  INSTANCE_SCOPE,
  type Manifest,
  type RecordsEntry,
  recordsFile,
} from './archive.js';
import { allCollections } from './collections.js';

export async function exportStore(store: Store, dir: string, log: (line: string) => void): Promise<Manifest> {
  if ((await readdir(dir).catch(() => [])).length > 0)
    throw new Error(`${dir} is not empty: export into a new directory`);
  const records: RecordsEntry[] = [];
  for (const spec of allCollections) {
    const scopes = spec.scope === 'instance' ? [INSTANCE_SCOPE] : await store.workspacesWith(spec);
    for (const scope of scopes) {
      const rows = await (scope === INSTANCE_SCOPE
        ? store.instance(spec)
        : store.collection(spec, scope)
      ).all();
      if (rows.length === 0) continue;
      const file = recordsFile(spec.name, scope);
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      records.push({
        collection: spec.name,
        scope,
        file,
        rows: rows.length,
        sha256: await hashFile(join(dir, file)),
      });
    }
  }
  const blobs: BlobEntry[] = [];
  for await (const info of store.blobs.list('workspaces')) {
    // assets' bytes; the parts of chunked uploads still in progress stay behind (their clients send them again)
    if (info.key.split('/')[2] !== 'files') continue;
    const source = await store.blobs.get(info.key);
    if (!source) continue; // removed since it was listed
    const target = join(dir, blobFile(info.key));
    await mkdir(dirname(target), { recursive: true });
    const count = new Sha256Stream();
    await pipeline(source, count, createWriteStream(target));
    blobs.push({ key: info.key, size: count.bytes, sha256: count.digest() });
  }
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    schemaVersion: await store.schemaVersion(),
    exportedAt: new Date().toISOString(),
    from: store.backend,
    records,
    blobs,
  };
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const rows = records.reduce((n, r) => n + r.rows, 0);
  const bytes = blobs.reduce((n, b) => n + b.size, 0);
  log(
    `Exported ${rows} records in ${records.length} files and ${blobs.length} blobs (${bytes} bytes) from ${store.backend}`,
  );
  return manifest;
}
