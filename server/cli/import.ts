// `folio import <dir>`: an export archive into an empty instance, on any backend. The archive is checked against
// its manifest first (every file's SHA-256), then written, then read back from the store and compared: every row
// equal, every blob the same SHA-256. Anything that differs is named and the import fails.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SCHEMA_VERSION } from '../store/migrations/index.js';
import type { CollectionSpec, Row, Store } from '../store/types.js';
import { ARCHIVE_FORMAT, blobFile, canonical, hashFile, INSTANCE_SCOPE, type Manifest } from './archive.js';
import { allCollections } from './collections.js';

export async function importStore(store: Store, dir: string, log: (line: string) => void): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== ARCHIVE_FORMAT)
    throw new Error(`${dir} is not a Folio export (no ${ARCHIVE_FORMAT} manifest)`);
  if (manifest.schemaVersion > SCHEMA_VERSION)
    throw new Error(`This export was written by a newer Folio (schema ${manifest.schemaVersion})`);
  await checkArchive(dir, manifest);
  await checkEmpty(store);
  const specs = new Map(allCollections.map((spec) => [spec.name, spec]));
  const open = (spec: CollectionSpec<Row>, scope: string) =>
    scope === INSTANCE_SCOPE ? store.instance(spec) : store.collection(spec, scope);

  for (const entry of manifest.records) {
    const spec = specs.get(entry.collection);
    if (!spec) throw new Error(`The export holds a collection this Folio does not know: ${entry.collection}`);
    const collection = open(spec, entry.scope);
    for (const row of await readRows(dir, entry.file)) await collection.insert(row);
  }
  for (const blob of manifest.blobs) {
    const put = await store.blobs.put(blob.key, createReadStream(join(dir, blobFile(blob.key))));
    if (put.sha256 !== blob.sha256)
      throw new Error(`${blob.key} was stored with SHA-256 ${put.sha256}, not ${blob.sha256}`);
  }
  await store.setSchemaVersion(manifest.schemaVersion);

  const problems = await verify(store, dir, manifest, open);
  if (problems.length)
    throw new Error(`The imported data differs from the export:\n${problems.slice(0, 20).join('\n')}`);
  const rows = manifest.records.reduce((n, r) => n + r.rows, 0);
  log(
    `Imported and verified ${rows} records and ${manifest.blobs.length} blobs into ${store.backend} (exported from ${manifest.from})`,
  );
}

/** Every file the manifest names is there with its SHA-256: a damaged archive is refused before anything is written. */
async function checkArchive(dir: string, manifest: Manifest): Promise<void> {
  for (const entry of manifest.records)
    if ((await hashFile(join(dir, entry.file))) !== entry.sha256)
      throw new Error(`${entry.file} does not match the manifest`);
  for (const blob of manifest.blobs)
    if ((await hashFile(join(dir, blobFile(blob.key)))) !== blob.sha256)
      throw new Error(`blob ${blob.key} does not match the manifest`);
}

async function checkEmpty(store: Store): Promise<void> {
  for (const spec of allCollections) {
    const scopes = spec.scope === 'instance' ? [] : await store.workspacesWith(spec);
    const count = spec.scope === 'instance' ? await store.instance(spec).count() : scopes.length;
    if (count > 0)
      throw new Error(`The target already holds ${spec.name}: import into a new, empty instance`);
  }
}

async function readRows(dir: string, file: string): Promise<Row[]> {
  const text = await readFile(join(dir, file), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
}

async function verify(
  store: Store,
  dir: string,
  manifest: Manifest,
  open: (spec: CollectionSpec<Row>, scope: string) => ReturnType<Store['instance']>,
): Promise<string[]> {
  const problems: string[] = [];
  const specs = new Map(allCollections.map((spec) => [spec.name, spec]));
  for (const entry of manifest.records) {
    const stored = new Map(
      (await open(specs.get(entry.collection)!, entry.scope).all()).map((r) => [r.id, comparable(r)]),
    );
    for (const row of await readRows(dir, entry.file))
      if (stored.get(row.id) !== comparable(row))
        problems.push(`${entry.collection} ${row.id} (${entry.scope}) differs`);
  }
  for (const blob of manifest.blobs) {
    const stream = await store.blobs.get(blob.key);
    if (!stream) {
      problems.push(`blob ${blob.key} is missing`);
      continue;
    }
    const hash = createHash('sha256');
    await pipeline(stream, hash);
    if (hash.digest('hex') !== blob.sha256) problems.push(`blob ${blob.key} has other bytes`);
  }
  return problems;
}

/** A row as both instances must hold it: `seq` is each store's own place in its change feed, stamped on write. */
function comparable({ seq: _, ...row }: Row): string {
  return canonical(row);
}
