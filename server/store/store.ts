// The data directory: instance-wide collections, per-workspace collections and their files.
//   <dataDir>/meta.json                    schema version
//   <dataDir>/instance/<name>.json|.log    users, sessions, workspaces, keys, waitlist ...
//   <dataDir>/workspaces/<id>/db/<name>.*  one workspace's records
//   <dataDir>/workspaces/<id>/files/       its bytes
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { type Collection, type CollectionFiles, createCollection, loadRows, type Row } from './collection.js';
import { runMigrations } from './migrations/index.js';

export const INSTANCE = 'instance';

export type StoreOptions = { dataDir: string; fsync?: boolean; compactAtBytes?: number };

export async function openStore(options: StoreOptions) {
  const { dataDir } = options;
  const collectionOptions = {
    fsync: options.fsync ?? true,
    compactAtBytes: options.compactAtBytes ?? 4 << 20,
  };
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
    const snapshotBytes = await stat(files.snapshot).then(
      (s) => s.size,
      () => 0,
    );
    collections.set(
      `${scope}/${name}`,
      createCollection(files, rows, { ...collectionOptions, snapshotBytes }),
    );
  }

  for (const scope of [INSTANCE, ...(await listDir(join(dataDir, 'workspaces')))]) {
    const names = new Set((await listDir(scopeDir(scope))).map((f) => f.replace(/\.(json|log)$/, '')));
    for (const name of names) if (!name.startsWith('.')) await load(name, scope);
  }

  function collection<T extends Row>(name: string, scope: string): Collection<T> {
    const id = `${scope}/${name}`;
    if (!collections.has(id))
      collections.set(id, createCollection(filesOf(name, scope), new Map(), collectionOptions));
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

/**
 * One server per data directory: a second one would interleave journal writes. proper-lockfile only calls
 * a lock stale after 15 s without a heartbeat, so after a crash (kill -9, power cut) the next start was
 * refused for up to 15 s. The holder's pid and host are recorded beside the lock; when that process is
 * gone on this host, the lock is taken over at once.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockfilePath = join(dataDir, '.lock');
  const options = { lockfilePath, stale: 15_000, update: 5_000 };
  const ownerFile = join(dataDir, '.lock-owner');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (!(await holderIsGone(ownerFile))) throw new Error(`Another Folio server is already using ${dataDir}`);
    await rm(lockfilePath, { recursive: true, force: true });
    release = await lockfile.lock(dataDir, options).catch((again) => {
      if (again.code === 'ELOCKED') throw new Error(`Another Folio server is already using ${dataDir}`);
      throw again;
    });
  }
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() }));
  return release;
}

async function holderIsGone(ownerFile: string): Promise<boolean> {
  const holder = await readFile(ownerFile, 'utf8').then(
    (text) => JSON.parse(text) as { pid?: unknown; host?: unknown },
    () => undefined,
  );
  if (!holder || typeof holder.pid !== 'number' || holder.host !== hostname() || holder.pid === process.pid)
    return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
