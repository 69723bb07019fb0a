// The data directory: instance-wide collections, per-workspace collections and their files.
//   <dataDir>/meta.json                    schema version
//   <dataDir>/instance/<name>.json|.log    users, sessions, workspaces, keys, waitlist ...
//   <dataDir>/workspaces/<id>/db/<name>.*  one workspace's records
//   <dataDir>/workspaces/<id>/files/       its bytes
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { type Collection, type CollectionFiles, createCollection, loadRows, type Row } from './collection.js';
import { runMigrations } from './migrations/index.js';

export const INSTANCE = 'instance';

export type StoreOptions = { dataDir: string; fsync?: boolean; compactAtBytes?: number };

export async function openStore(options: StoreOptions) {
  const { dataDir } = options;
  const collectionOptions = { fsync: options.fsync ?? true, compactAtBytes: options.compactAtBytes ?? 4 << 20 };
  await mkdir(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir);
  // Under the lock nothing else writes here: whatever is in tmp/ is left from a crash mid-upload.
  await rm(join(dataDir, 'tmp'), { recursive: true, force: true });
  await mkdir(join(dataDir, 'tmp'), { recursive: true });
  const collections = new Map<string, Collection<Row>>();

  const scopeDir = (scope: string) =>
    scope === INSTANCE ? join(dataDir, INSTANCE) : join(dataDir, 'workspaces', scope, 'db');
  const filesOf = (name: string, scope: string): CollectionFiles => ({
    snapshot: join(scopeDir(scope), `${name}.json`),
    journal: join(scopeDir(scope), `${name}.log`),
  });

  async function load(name: string, scope: string): Promise<void> {
    const files = filesOf(name, scope);
    const rows = await loadRows(files);
    const snapshotBytes = await stat(files.snapshot).then((s) => s.size, () => 0);
    collections.set(`${scope}/${name}`, createCollection(files, rows, { ...collectionOptions, snapshotBytes }));
  }

  for (const scope of [INSTANCE, ...(await listDir(join(dataDir, 'workspaces')))]) {
    const names = new Set((await listDir(scopeDir(scope))).map((f) => f.replace(/\.(json|log)$/, '')));
    for (const name of names) if (!name.startsWith('.')) await load(name, scope);
  }

  function collection<T extends Row>(name: string, scope: string): Collection<T> {
    const id = `${scope}/${name}`;
    if (!collections.has(id)) collections.set(id, createCollection(filesOf(name, scope), new Map(), collectionOptions));
    return collections.get(id) as unknown as Collection<T>;
  }

  const store = {
    dataDir,
    tmpDir: join(dataDir, 'tmp'),
    collection,
    instance: <T extends Row>(name: string) => collection<T>(name, INSTANCE),
    /** Workspace ids that hold a collection of this name, for indexes built at start-up. */
    scopes: (name: string) =>
      [...collections.keys()]
        .filter((id) => id.endsWith(`/${name}`) && !id.startsWith(`${INSTANCE}/`))
        .map((id) => id.slice(0, -name.length - 1)),
    workspaceDir: (workspaceId: string) => join(dataDir, 'workspaces', workspaceId),
    async dropWorkspace(workspaceId: string): Promise<void> {
      for (const [id, c] of collections) {
        if (id.startsWith(`${workspaceId}/`)) {
          await c.close();
          collections.delete(id);
        }
      }
      await rm(join(dataDir, 'workspaces', workspaceId), { recursive: true, force: true });
    },
    async close(): Promise<void> {
      for (const c of collections.values()) await c.close();
      await release();
    },
  };
  await runMigrations(store);
  return store;
}

export type Store = Awaited<ReturnType<typeof openStore>>;

async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** One server per data directory: a second one would interleave journal writes. */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, { lockfilePath: join(dataDir, '.lock'), stale: 15_000, update: 5_000 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
      throw new Error(`Another Folio server is already using ${dataDir}`);
    throw error;
  }
}
