// The file backend: the embedded default. Layout of the data directory:
//   meta.json                              schema version
//   instance/<name>.json|.log              instance-wide collections (users, sessions, workspaces, keys ...)
//   .../.<name>.log.<n>                    a journal a compaction retired, until the snapshot holds it
//   workspaces/<id>/db/<name>.json|.log    one workspace's collections
//   workspaces/<id>/...                    its blobs (files/, chunked/ ...)
//   tmp/                                   uploads in flight, emptied at start-up
import { mkdir, readdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { consoleLogger, type Logger } from '../../log.js';
import { createScopeGate } from '../scope-gate.js';
import { type CollectionSpec, defineCollection, type Row, type Store } from '../types.js';
import { createFileBlobs } from './blobs.js';
import { type ChangeFeed, createChangeFeed } from './change-feed.js';
import { createFileCollection, type FileCollection } from './collection.js';
import {
  applyIfNewer,
  type CollectionData,
  type CollectionFiles,
  loadRows,
  snapshotChunks,
} from './collection-data.js';
import { lockDataDir } from './data-dir-lock.js';
import { writeChunksDurably, writeFileDurably } from './durable-file.js';
import type { FaultInjector } from './faults.js';
import { hasFindFields } from './find-index.js';
import { createUniqueRegistry, type UniqueIndexes, type UniqueRegistry } from './unique-indexes.js';
import { createFileUnits, readUnits, UNITS_JOURNAL } from './unit-of-work.js';

export const INSTANCE = 'instance';

export type FileStoreOptions = {
  dataDir: string;
  fsync?: boolean;
  compactAtBytes?: number;
  log?: Logger;
  /** Tests only: fail chosen write steps as a full or failing disk would. */
  faults?: FaultInjector;
  compactionRetryMs?: number;
};

type Opened = FileCollection<Row>;

/** Workspaces whose drop began: their files are removed at start-up if a crash interrupted the removal. */
const droppedWorkspaces = defineCollection<{ id: string; droppedAt: string }>({
  name: 'dropped-workspaces',
  scope: 'instance',
  fields: {},
});

export async function openFileStore(options: FileStoreOptions): Promise<Store> {
  const { dataDir } = options;
  const log = options.log ?? consoleLogger;
  const fsync = options.fsync ?? true;
  const compactAtBytes = options.compactAtBytes ?? 4 << 20;
  await mkdir(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir, log);
  const tmpDir = join(dataDir, 'tmp');
  // Under the lock nothing else writes here: whatever is in tmp/ was left by a crash mid-upload.
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true });

  const gate = createScopeGate();
  const scopeDir = (scope: string) =>
    scope === INSTANCE ? join(dataDir, INSTANCE) : join(dataDir, 'workspaces', scope, 'db');
  const filesOf = (name: string, scope: string): CollectionFiles => ({
    snapshot: join(scopeDir(scope), `${name}.json`),
    journal: join(scopeDir(scope), `${name}.log`),
    retired: (generation) => join(scopeDir(scope), `.${name}.log.${generation}`),
  });

  /**
   * Every collection's data by `scope/name`: read at start-up (before its spec is known) or made on first use, with
   * the generations of its retired journals.
   */
  const loaded = new Map<string, { data: CollectionData<Row>; snapshotBytes: number; retired: number[] }>();
  const empty = () => ({
    data: { rows: new Map(), tombstones: new Map() },
    snapshotBytes: 0,
    retired: [] as number[],
  });
  const opened = new Map<string, Opened>();
  let closed = false;
  const registries = new Map<string, UniqueRegistry<Row>>();
  /** Workspaces dropped so far: a registry built over turns during a drop may hold its rows, and is not kept. */
  let dropsSeen = 0;
  /** Each workspace's change feed. */
  const feeds = new Map<string, ChangeFeed>();

  async function loadScope(scope: string): Promise<void> {
    const names = new Set<string>();
    const retiredOf = new Map<string, number[]>();
    for (const file of await listDir(scopeDir(scope))) {
      const retired = /^\.(.+)\.log\.(\d+)$/.exec(file);
      if (retired) retiredOf.set(retired[1], [...(retiredOf.get(retired[1]) ?? []), Number(retired[2])]);
      names.add(retired ? retired[1] : file.replace(/\.(json|log)$/, ''));
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const files = filesOf(name, scope);
      const retired = (retiredOf.get(name) ?? []).sort((a, b) => a - b);
      const data = await loadRows(files, retired);
      const snapshotBytes = await stat(files.snapshot).then(
        (s) => s.size,
        () => 0,
      );
      loaded.set(`${scope}/${name}`, { data, snapshotBytes, retired });
    }
    if (scope === INSTANCE) return;
    for (const name of await replayUnits(scope)) names.add(name);
    await loadFeed(
      scope,
      [...names].filter((n) => !n.startsWith('.')),
    );
  }

  /**
   * Applies the workspace's committed units of work over its collections (unit-of-work.ts): a write whose copy
   * never reached its collection's journal applies now and is folded into a snapshot; then the unit journal is
   * emptied. Answers the names of the collections the units wrote.
   */
  async function replayUnits(scope: string): Promise<string[]> {
    const touched = new Set<string>();
    const written = new Set<string>();
    for (const { writes } of await readUnits(scopeDir(scope)))
      for (const { collection, entry } of writes) {
        written.add(collection);
        const id = `${scope}/${collection}`;
        if (!loaded.has(id)) loaded.set(id, empty());
        if (applyIfNewer(loaded.get(id)!.data, entry)) touched.add(collection);
      }
    for (const name of touched) await foldIntoSnapshot(scope, name);
    await truncate(join(scopeDir(scope), UNITS_JOURNAL), 0).catch(() => undefined);
    return [...written];
  }

  /** Writes a collection's data as its snapshot and empties its journals (oldest first), before anything is served. */
  async function foldIntoSnapshot(scope: string, name: string): Promise<void> {
    const files = filesOf(name, scope);
    const entry = loaded.get(`${scope}/${name}`)!;
    await mkdir(scopeDir(scope), { recursive: true });
    const { rows, tombstones } = entry.data;
    await writeChunksDurably(files.snapshot, snapshotChunks([...rows.values()], tombstones), fsync);
    for (const generation of entry.retired.splice(0)) await rm(files.retired(generation), { force: true });
    await truncate(files.journal, 0).catch(() => undefined);
    entry.snapshotBytes = (await stat(files.snapshot)).size;
  }

  /** Rebuilds a workspace's feed from the stored seqs; rows written before the feed existed get theirs now. */
  async function loadFeed(scope: string, names: string[]): Promise<void> {
    const feed = feedOf(scope);
    const unsequenced: Array<{ name: string; row: Row }> = [];
    let sinceYield = 0;
    for (const name of names) {
      const { data } = loaded.get(`${scope}/${name}`)!;
      for (const row of data.rows.values()) {
        if (typeof row.seq === 'number') feed.load(name, row.id, row.seq);
        else unsequenced.push({ name, row });
        // A turn of the event loop every 5,000 rows: a library of 100,000 is not one long pass.
        if (++sinceYield % 5_000 === 0) await nextTurn();
      }
      for (const [id, seq] of data.tombstones) feed.load(name, id, seq);
    }
    const touched = new Set<string>();
    const createdAt = (row: Row) => String((row as { createdAt?: unknown }).createdAt ?? '');
    unsequenced.sort(
      (a, b) => createdAt(a.row).localeCompare(createdAt(b.row)) || a.row.id.localeCompare(b.row.id),
    );
    for (const { name, row } of unsequenced) {
      const seq = feed.last() + 1;
      loaded.get(`${scope}/${name}`)!.data.rows.set(row.id, { ...row, seq });
      feed.load(name, row.id, seq);
      touched.add(name);
    }
    // Folded into a snapshot before anything is served, so the seqs handed out are the ones on disk.
    for (const name of touched) await foldIntoSnapshot(scope, name);
    feed.loaded();
  }

  function feedOf(scope: string): ChangeFeed {
    let feed = feeds.get(scope);
    if (!feed) {
      feed = createChangeFeed();
      feeds.set(scope, feed);
    }
    return feed;
  }

  await loadScope(INSTANCE);
  const dropped = new Set(loaded.get(`${INSTANCE}/${droppedWorkspaces.name}`)?.data.rows.keys() ?? []);
  for (const id of dropped) {
    gate.markDropped(id);
    await rm(join(dataDir, 'workspaces', id), { recursive: true, force: true });
  }
  for (const scope of await listDir(join(dataDir, 'workspaces')))
    if (!dropped.has(scope)) await loadScope(scope);

  function registryOf<T extends Row>(spec: CollectionSpec<T>): UniqueRegistry<T> {
    let registry = registries.get(spec.name);
    if (!registry) {
      registry = createUniqueRegistry(spec as CollectionSpec<Row>);
      for (const row of rowsOfEvery(spec.name, registry)) row();
      registries.set(spec.name, registry);
    }
    return registry as unknown as UniqueRegistry<T>;
  }

  /** One step per loaded row of collection `name` in every scope, each adding it to `registry`. */
  function* rowsOfEvery(name: string, registry: UniqueRegistry<Row>): Iterable<() => void> {
    for (const [id, { data }] of loaded) {
      if (!id.endsWith(`/${name}`)) continue;
      const scoped = registry.forScope(id.slice(0, -name.length - 1));
      for (const row of data.rows.values()) yield () => scoped.replace(undefined, row);
    }
  }

  function open<T extends Row>(spec: CollectionSpec<T>, scope: string): FileCollection<T> {
    const id = `${scope}/${spec.name}`;
    let collection = opened.get(id);
    if (!collection) {
      // The registry is built at the first write or check, not at open: a read never waits for every row's keys.
      let scoped: UniqueIndexes<Row> | undefined;
      const registered = () => (scoped ??= registryOf(spec as CollectionSpec<Row>).forScope(scope));
      const unique: UniqueIndexes<Row> = {
        check: (next, current) => registered().check(next, current),
        replace: (previous, next) => registered().replace(previous, next),
      };
      let start = loaded.get(id);
      if (!start) {
        start = empty();
        loaded.set(id, start);
      }
      collection = createFileCollection(
        spec as CollectionSpec<Row>,
        filesOf(spec.name, scope),
        start.data,
        unique,
        {
          fsync,
          compactAtBytes,
          log,
          snapshotBytes: start.snapshotBytes,
          retired: start.retired,
          feed: scope === INSTANCE ? undefined : feedOf(scope),
          enterWrite: () => (scope === INSTANCE ? () => {} : gate.enter(scope)),
          heldByUnit: scope === INSTANCE ? undefined : (id) => units.heldByUnit(scope, spec.name, id),
          faults: options.faults,
          compactionRetryMs: options.compactionRetryMs ?? 30_000,
        },
      );
      opened.set(id, collection);
    }
    return collection as unknown as FileCollection<T>;
  }

  const blobs = createFileBlobs({ root: dataDir, tmpDir, fsync, gate, faults: options.faults });
  const units = createFileUnits({ dirOf: scopeDir, fsync, faults: options.faults, gate, blobs, open, log });
  const metaPath = join(dataDir, 'meta.json');

  const store: Store & { dataDir: string } = {
    backend: 'files',
    dataDir,
    tmpDir,
    blobs,
    unitOfWork: (workspaceId, work) => units.run(workspaceId, work),
    collection: (spec, workspaceId) => open(spec, workspaceId),
    instance: (spec) => open(spec, INSTANCE),
    async lookup(spec, field, value) {
      const holder = registryOf(spec).find(field, value);
      if (!holder) return undefined;
      const row = await open(spec, holder.scope).get(holder.id);
      return row && { workspaceId: holder.scope, row };
    },
    async changes(workspaceId, query) {
      const feed = feeds.get(workspaceId);
      if (!feed || gate.isDropped(workspaceId))
        return { changes: [], next: query.since, more: false, head: 0 };
      const { entries, ...page } = feed.read(query);
      const changes = entries.map(({ seq, collection, id }) => ({
        seq,
        collection,
        id,
        row: loaded.get(`${workspaceId}/${collection}`)?.data.rows.get(id) ?? null,
      }));
      return { changes, ...page };
    },
    async workspacesWith(spec, where) {
      const scopes = new Set<string>();
      for (const id of [...loaded.keys(), ...opened.keys()]) {
        const scope = id.slice(0, id.indexOf('/'));
        if (id === `${scope}/${spec.name}` && scope !== INSTANCE) scopes.add(scope);
      }
      const live = [...scopes].filter((scope) => !gate.isDropped(scope));
      if (!where) return live;
      const holding = await Promise.all(
        live.map(async (scope) => (await open(spec, scope).count(where)) > 0),
      );
      return live.filter((_, i) => holding[i]);
    },
    async dropWorkspace(workspaceId) {
      await open(droppedWorkspaces, INSTANCE)
        .insert({ id: workspaceId, droppedAt: new Date().toISOString() })
        .catch((error) => {
          if ((error as Error).name !== 'StoreConflict') throw error;
        });
      await gate.drop(workspaceId);
      for (const [id, collection] of opened) {
        if (!id.startsWith(`${workspaceId}/`)) continue;
        await collection.close();
        opened.delete(id);
      }
      for (const id of loaded.keys()) if (id.startsWith(`${workspaceId}/`)) loaded.delete(id);
      feeds.delete(workspaceId);
      await units.forget(workspaceId);
      for (const registry of registries.values()) registry.forgetScope(workspaceId);
      dropsSeen++;
      await rm(join(dataDir, 'workspaces', workspaceId), { recursive: true, force: true });
    },
    async prepareIndexes(specs) {
      for (const spec of specs) {
        if (!spec.unique?.length || registries.has(spec.name)) continue;
        const registry = createUniqueRegistry(spec);
        const drops = dropsSeen;
        let done = 0;
        for (const row of rowsOfEvery(spec.name, registry)) {
          row();
          if (++done % 1_000 === 0) await nextTurn();
        }
        if (!registries.has(spec.name) && drops === dropsSeen) registries.set(spec.name, registry);
      }
    },
    async fillFindIndexes(specs) {
      for (const spec of specs) {
        if (!hasFindFields(spec)) continue;
        for (const id of [...loaded.keys()])
          if (id.endsWith(`/${spec.name}`) && !closed)
            await open(spec, id.slice(0, -spec.name.length - 1)).fillFindIndex();
      }
    },
    async schemaVersion() {
      const meta = await readFile(metaPath, 'utf8').then(JSON.parse, () => ({ schemaVersion: 0 }));
      return Number(meta.schemaVersion ?? 0);
    },
    async setSchemaVersion(version) {
      await writeFileDurably(metaPath, JSON.stringify({ schemaVersion: version }), fsync);
    },
    async close() {
      closed = true;
      for (const collection of opened.values()) await collection.close();
      await units.close();
      await release();
    },
  };
  return store;
}

async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}
