// kill -9 during compaction loses nothing: a writer process (tests/helpers/compacting-writer.ts) keeps its journal
// passing the threshold with units of work, updates and removes; each round it is killed while a compaction is
// under way (a retired journal on disk), at a random moment of it, and a store opened on what it left must hold
// every acknowledged write. FOLIO_CRASH_ROUNDS sets the number of rounds (default 8).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { silentLogger } from '../../../server/log.js';
import { openFileStore } from '../../../server/store/file/store.js';
import { defineCollection } from '../../../server/store/types.js';

// As the writer declares them.
const items = defineCollection<{ id: string; version: number }>({
  name: 'items',
  scope: 'workspace',
  fields: {},
});
const notes = defineCollection<{ id: string; itemId: string }>({
  name: 'notes',
  scope: 'workspace',
  fields: {},
});

const ROUNDS = Number(process.env.FOLIO_CRASH_ROUNDS ?? 8);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

type Acked = {
  puts: Set<string>;
  deleting: Set<string>;
  deleted: Set<string>;
  versions: Map<string, number>;
};

function startWriter(dataDir: string, run: number, acked: Acked) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/helpers/compacting-writer.ts', dataDir, String(run)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const [what, id, version] = line.split(' ');
      if (what === 'ready') resolve();
      else if (what === 'put') acked.puts.add(id);
      else if (what === 'deleting') acked.deleting.add(id);
      else if (what === 'del') acked.deleted.add(id);
      else if (what === 'set') acked.versions.set(id, Math.max(acked.versions.get(id) ?? 0, Number(version)));
    });
  });
  return { child, ready, exited };
}

/**
 * Once the round has acknowledged `after` inserts, waits until a compaction has retired a journal, lets it run a
 * random while, then kills the writer.
 */
async function killDuringCompaction(
  db: string,
  child: ChildProcess,
  acked: Acked,
  after: number,
): Promise<void> {
  while (acked.puts.size < after && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const names = await readdir(db).catch(() => [] as string[]);
    if (names.some((name) => /^\.items\.log\.\d+$/.test(name))) {
      await new Promise((r) => setTimeout(r, Math.random() * 25));
      break;
    }
  }
  child.kill('SIGKILL');
}

it(
  `keeps every acknowledged write across ${ROUNDS} kill -9s during compaction`,
  async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-compaction-crash-'));
    dirs.push(dataDir);
    const db = join(dataDir, 'workspaces', 'ws_1', 'db');
    const acked: Acked = { puts: new Set(), deleting: new Set(), deleted: new Set(), versions: new Map() };
    let caughtMidway = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const writer = startWriter(dataDir, round, acked);
      await writer.ready;
      await killDuringCompaction(db, writer.child, acked, acked.puts.size + 50);
      await writer.exited;
      const left = await readdir(db);
      if (left.some((name) => /^\.items\.(log\.\d+|json\.tmp)$/.test(name))) caughtMidway++;
      // Whatever the kill left, a snapshot (none before the first compaction ends) is one whole JSON document.
      if (left.includes('items.json')) JSON.parse(await readFile(join(db, 'items.json'), 'utf8'));

      const store = await openFileStore({ dataDir, fsync: false, log: silentLogger });
      const rows = store.collection(items, 'ws_1');
      const lost: string[] = [];
      for (const id of acked.puts) {
        if (acked.deleting.has(id)) continue;
        if (!(await rows.get(id))) lost.push(`insert ${id}`);
        if (!(await store.collection(notes, 'ws_1').get(`note-${id}`))) lost.push(`note of ${id}`);
      }
      for (const id of acked.deleted) if (await rows.get(id)) lost.push(`remove ${id}`);
      for (const [id, version] of acked.versions)
        if (((await rows.get(id))?.version ?? -1) < version) lost.push(`update ${id} to ${version}`);
      await store.close();
      expect(lost.slice(0, 10), `round ${round}: acknowledged writes lost`).toEqual([]);
    }
    expect(acked.puts.size).toBeGreaterThanOrEqual(ROUNDS * 50);
    expect(caughtMidway).toBeGreaterThan(0);
  },
  ROUNDS * 30_000,
);
