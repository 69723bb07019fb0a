// What a test server has stored, whichever backend it runs on: the records as text (every file under the data
// directory, or every row of every table in PostgreSQL) and the blobs by key, so "nothing partial stays behind"
// and "only a hash is stored" are checked where the data really lives.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { TestServer } from './server.js';

type Srv = Pick<TestServer, 'dataDir' | 'server'>;

/** Every stored byte of the records (and, for the file backend, of everything else under the data dir). */
export async function storedText(srv: Srv): Promise<string> {
  const database = srv.server.config.database;
  const files = await filesText(srv.dataDir);
  if (!database) return files;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>('SELECT table_name FROM folio_collections');
    const texts = [files];
    for (const { table_name } of rows) {
      const result = await client.query<{ doc: string }>(`SELECT doc::text AS doc FROM "${table_name}"`);
      texts.push(...result.rows.map((r) => r.doc));
    }
    return texts.join('\n');
  } finally {
    await client.end();
  }
}

async function filesText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const texts = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) => readFile(join(e.parentPath, e.name), 'latin1').catch(() => '')),
  );
  return texts.join('\n');
}

/** Blob keys under `prefix` (e.g. `workspaces/<id>/files`). */
export async function blobKeys(srv: Pick<TestServer, 'deps'>, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const info of srv.deps.store.blobs.list(prefix)) keys.push(info.key);
  return keys.sort();
}

/** Names in the store's scratch directory (uploads in flight). */
export const scratchFiles = async (srv: Pick<TestServer, 'deps'>): Promise<string[]> =>
  (await readdir(srv.deps.store.tmpDir).catch(() => [])).sort();
