// Concurrent mutations, torn journal tails, damaged files, one server per data dir.
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileStore as openStore } from '../../../server/store/file/store.js';
import { defineCollection } from '../../../server/store/types.js';
import { runServerToExit } from '../../helpers/child-server.js';
import { hostedTests } from '../../helpers/hosted/backend.js';
import { startTestServer } from '../../helpers/server.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

type KeyList = { data: { id: string; name: string }[] };

const things = defineCollection<{ id: string; n?: number; pad?: string }>({
  name: 'things',
  scope: 'instance',
  fields: {},
});

describe('concurrent mutations', () => {
  it('keeps all of 1,000 concurrent key creations and 500 concurrent renames, across a restart, with fsync on', async () => {
    const dataDir = await tempDir();
    const srv = await startTestServer({ dataDir, fsync: true });
    const api = srv.as(srv.owner);
    const workspaces = await Promise.all(
      Array.from(
        { length: 500 },
        async (_, i) =>
          (await (
            await api('/api/v1/workspaces', { method: 'POST', body: JSON.stringify({ name: `w${i}` }) })
          ).json()) as { id: string },
      ),
    );
    const responses = await Promise.all([
      ...Array.from({ length: 1000 }, (_, i) =>
        api('/api/v1/api-keys', {
          method: 'POST',
          body: JSON.stringify({ name: `k${i}`, services: ['assets'] }),
        }),
      ),
      ...workspaces.map((w, i) =>
        api(`/api/v1/workspaces/${w.id}`, {
          method: 'PATCH',
          body: JSON.stringify({ name: `renamed ${i}` }),
        }),
      ),
    ]);
    expect(responses.filter((r) => r.status >= 300).map((r) => r.status)).toEqual([]);
    const check = async (s: typeof srv) => {
      const keys = (await (await s.as(s.owner)('/api/v1/api-keys')).json()) as KeyList;
      expect(new Set(keys.data.map((k) => k.name))).toEqual(
        new Set(Array.from({ length: 1000 }, (_, i) => `k${i}`)),
      );
      const list = (await (await s.as(s.owner)('/api/v1/workspaces')).json()) as KeyList;
      const names = list.data.map((w) => w.name).filter((n) => n.startsWith('renamed'));
      expect(names).toHaveLength(500);
    };
    await check(srv);
    const cookie = srv.owner;
    await srv.close();
    const again = await startTestServer({ dataDir });
    try {
      await check({ ...again, owner: cookie, as: again.as } as typeof again);
    } finally {
      await again.close();
    }
  });

  it('folds the journal into a snapshot past the threshold and loads the same rows afterwards', async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir, fsync: true, compactAtBytes: 2_000 });
    const rows = store.instance(things);
    await Promise.all(Array.from({ length: 300 }, (_, i) => rows.insert({ id: `t${i}`, n: i })));
    for (let i = 0; i < 300; i += 3) await rows.update(`t${i}`, { n: -i });
    await rows.remove('t1');
    await store.close();
    const snapshot = JSON.parse(await readFile(join(dataDir, 'instance', 'things.json'), 'utf8')) as {
      rows: unknown[];
    };
    expect(snapshot.rows.length).toBeGreaterThan(0);
    const reopened = await openStore({ dataDir });
    const back = reopened.instance(things);
    expect(await back.count()).toBe(299);
    expect((await back.get('t3'))?.n).toBe(-3);
    expect(await back.get('t1')).toBeUndefined();
    await reopened.close();
  });

  it('compacts a journal that grew across many short runs, each below the threshold on its own', async () => {
    const dataDir = await tempDir();
    for (let run = 0; run < 12; run++) {
      const store = await openStore({ dataDir, fsync: false, compactAtBytes: 2_000 });
      const rows = store.instance(things);
      for (let i = 0; i < 5; i++) await rows.insert({ id: `r${run}-${i}`, pad: 'x'.repeat(40) });
      await store.close();
    }
    const journal = await readFile(join(dataDir, 'instance', 'things.log'), 'utf8');
    expect(journal.length).toBeLessThan(2_000 + 500);
    const reopened = await openStore({ dataDir });
    expect(await reopened.instance(things).count()).toBe(60);
    await reopened.close();
  });
});

// The file backend's own files; the hosted backend keeps records in PostgreSQL and lets many nodes share them.
describe.skipIf(hostedTests)('damaged files at start-up', () => {
  async function dirWithKeys() {
    const dataDir = await tempDir();
    const srv = await startTestServer({ dataDir });
    await srv.createKey({ services: ['assets'] });
    await srv.createKey({ services: [] });
    const listed = await (await srv.as(srv.owner)('/api/v1/api-keys')).json();
    const owner = srv.owner;
    await srv.close();
    return { dataDir, listed, owner };
  }

  it('ignores a torn last journal line (an unacknowledged write), trims it, and serves the rest', async () => {
    const { dataDir, listed, owner } = await dirWithKeys();
    const log = join(dataDir, 'instance', 'api-keys.log');
    await appendFile(log, '{"op":"put","row":{"id":"key_torn","name":"half');
    const srv = await startTestServer({ dataDir });
    try {
      expect(await (await srv.as(owner)('/api/v1/api-keys')).json()).toEqual(listed);
      const text = await readFile(log, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      expect(text).not.toContain('key_torn');
    } finally {
      await srv.close();
    }
  });

  it.each([
    ['truncated', (s: string) => s.slice(0, Math.floor(s.length / 2))],
    ['empty', () => ''],
    ['not JSON', () => 'garbage\n'],
    ['a BOM plus bad JSON', (s: string) => `\ufeff${s.slice(1)}`],
    ['of the wrong shape', () => '{"rows":5}'],
  ])(
    'refuses to start when the snapshot is %s, says which file, and leaves it untouched',
    async (_label, damage) => {
      const dataDir = await tempDir();
      const srv = await startTestServer({ dataDir, fsync: true });
      await srv.deps.store.instance(things).insert({ id: 'x' });
      await srv.close();
      // A snapshot exists only after compaction; write one as compaction would.
      const snapshot = join(dataDir, 'instance', 'workspaces.json');
      const journal = join(dataDir, 'instance', 'workspaces.log');
      const rows = (await readFile(journal, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).row);
      await writeFile(snapshot, damage(JSON.stringify({ rows }, null, 2)));
      const before = await readFile(snapshot);
      const { code, output } = await runServerToExit(['--port', '0', '--data-dir', dataDir]);
      expect(code).not.toBe(0);
      expect(output).toContain('Folio could not start');
      expect(output).toContain('workspaces.json');
      expect(output).not.toMatch(/\n\s+at /);
      expect(await readFile(snapshot)).toEqual(before);
    },
  );

  it('refuses to start on a damaged line inside the journal, naming the file and line', async () => {
    const { dataDir } = await dirWithKeys();
    const log = join(dataDir, 'instance', 'api-keys.log');
    const lines = (await readFile(log, 'utf8')).split('\n');
    lines[0] = lines[0].slice(0, 10);
    await writeFile(log, lines.join('\n'));
    const before = await readFile(log);
    const { code, output } = await runServerToExit(['--port', '0', '--data-dir', dataDir]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/api-keys\.log is damaged at line 1/);
    expect(await readFile(log)).toEqual(before);
  });
});

describe.skipIf(hostedTests)('one server per data directory', () => {
  it('refuses a second server on the same data dir, in-process and as a process, and the first keeps serving', async () => {
    const dataDir = await tempDir();
    const first = await startTestServer({ dataDir });
    try {
      await expect(startTestServer({ dataDir })).rejects.toThrow(/already using/);
      const { code, output } = await runServerToExit(['--port', '0', '--data-dir', dataDir]);
      expect(code).not.toBe(0);
      expect(output).toMatch(/Another Folio server is already using/);
      expect((await first.as(first.owner)('/api/v1/me')).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startTestServer({ dataDir });
    await second.close();
  });
});
