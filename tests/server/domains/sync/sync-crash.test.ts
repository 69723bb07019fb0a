// The sync CLI killed (SIGKILL) mid-work, as a laptop lid closes or a process dies: an interrupted large blob
// resumes from its last part, and a workspace of 1,000 assets, 20 transcripts and versioned diagrams, charts and
// artifacts that keeps changing on both sides (new versions archived in the same round, publishes killed between
// their version and their item) syncs through 20 kills at random points to an end state that, compared item by
// item (bytes hashes, names, tags, words, every version, archive flags), has nothing missing, nothing twice, no
// half-written publish and no conflict a crash made up; one more run changes nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { collectionsOf } from '../../../../server/domains/publishing/collections.js';
import { stagedBlobs } from '../../../../server/domains/sync/collections.js';
import { chunkedUploads } from '../../../../server/domains/uploads/chunked/collections.js';
import { SERVICE_NAMES } from '../../../../server/http/viewer.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { type Json, listAll, ON_FILES, syncedRecords, upload } from '../../../helpers/sync-pair.js';
import { engineBuilt, makeFixtures, queueTranscript, waitForStatus } from '../../../helpers/transcription.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A seeded generator, so a failing run can be repeated with its seed (printed). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Cli = { code: number | null; signal: NodeJS.Signals | null; output: string };

/** Runs the CLI; `kill(proc, output)` may SIGKILL it whenever it likes. */
function runCli(args: string[], kill?: (proc: ChildProcess, output: () => string) => void): Promise<Cli> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/sync-cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, FOLIO_FSYNC: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  kill?.(proc, () => output);
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal, output })));
}

const summaryOf = (run: Cli) => JSON.parse(run.output.split('\n').find((l) => l.startsWith('{'))!) as Json;

/**
 * Kills the CLI `delayMs` after it starts its run (its "Syncing" line, once the store is open), so the kill lands
 * in the work itself; `ran` gets how long the run lasted when it finished first.
 */
const killDuringRun =
  (delayMs: number, ran: (ms: number) => void) => (proc: ChildProcess, output: () => string) => {
    let started = 0;
    const watch = setInterval(() => {
      if (!output().includes('Syncing "')) return;
      clearInterval(watch);
      started = Date.now();
      setTimeout(() => proc.kill('SIGKILL'), delayMs);
    }, 1);
    proc.once('exit', (_code, signal) => {
      clearInterval(watch);
      if (!signal && started) ran(Date.now() - started);
    });
  };

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function desktopFolder() {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-desktop-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

async function connect(desktop: TestServer, hosted: TestServer, key: string) {
  const res = await desktop.as(desktop.owner)('/api/v1/sync/settings', {
    method: 'PUT',
    body: JSON.stringify({ remoteUrl: hosted.url, key, enabled: false }),
  });
  expect(res.status).toBe(200);
}

describe('sync killed mid-work', () => {
  it('resumes an interrupted 100 MB blob from its last part and never sends bytes the server has', {
    timeout: 180_000,
  }, async () => {
    const hosted = await startTestServer({ limits: { uploadBytes: 256 << 20 } });
    cleanups.push(() => hosted.close());
    const hostedKey = await hosted.createKeyDetails({ services: [...SERVICE_NAMES] });
    const dataDir = await desktopFolder();
    let desktop = await startTestServer({ ...ON_FILES, dataDir, limits: { uploadBytes: 256 << 20 } });
    const { bearer, workspaceId } = await desktop.createKeyDetails({ services: [...SERVICE_NAMES] });
    const big = randomBytes(100 << 20);
    const asset = await upload(desktop, bearer, big, 'recording.bin');
    await connect(desktop, hosted, hostedKey.bearer);
    await desktop.close();

    const uploads = hosted.deps.store.collection(chunkedUploads, hostedKey.workspaceId);
    const args = ['--workspace', workspaceId, '--data-dir', dataDir, '--json'];
    // Killed once the CLI reports its second 32 MiB part sent (it sends them one after another).
    const cut = await runCli([...args, '--verbose'], (proc, output) => {
      const watch = setInterval(() => {
        const sent = [...output().matchAll(/upload: \d+ of \d+, ([\d.]+) of/g)].map((m) => Number(m[1]));
        if (sent.some((mb) => mb >= 64)) {
          clearInterval(watch);
          proc.kill('SIGKILL');
        }
      }, 2);
      proc.once('exit', () => clearInterval(watch));
    });
    expect(cut.signal, `${cut.code} ${cut.output}`).toBe('SIGKILL');
    const [pack] = await uploads.all();
    const received = Object.keys(pack.parts).length;
    expect(received).toBeGreaterThanOrEqual(2);
    expect(received).toBeLessThan(pack.partCount);

    const resumed = await runCli(args);
    expect(resumed.code, resumed.output).toBe(0);
    expect(summaryOf(resumed).counts).toMatchObject({ partsSent: pack.partCount - received, pushed: 1 });
    expect(await uploads.count()).toBe(1); // the same upload, finished: no second begin
    const there = (await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(asset.id)!;
    expect(sha(Buffer.from(await (await fetch(there.urls.file)).arrayBuffer()))).toBe(sha(big));

    desktop = await startTestServer({ ...ON_FILES, dataDir, limits: { uploadBytes: 256 << 20 } });
    const copy = await upload(desktop, bearer, big, 'same-bytes-again.bin');
    await desktop.close();
    const again = await runCli(args);
    expect(summaryOf(again).counts).toEqual({ pushed: 1 });
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(copy.id)).toMatchObject({
      sha256: sha(big),
    });
  });

  it.skipIf(!engineBuilt)(
    'a workspace of 1,000 assets, 20 transcripts and versioned publications, changing on both sides, syncs through 20 kills exactly',
    { timeout: 1_200_000 },
    async () => {
      const seed = Number(process.env.SYNC_CRASH_SEED ?? Date.now() % 100_000);
      console.log(`sync crash test seed ${seed} (SYNC_CRASH_SEED=${seed} repeats it)`);
      const rand = random(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
      const fx = makeFixtures();
      cleanups.push(() => fx.cleanup());
      const hosted = await startTestServer();
      cleanups.push(() => hosted.close());
      const hostedKey = await hosted.createKeyDetails({ services: [...SERVICE_NAMES] });
      const dataDir = await desktopFolder();

      /** What both sides must hold at the end, by id. Each side edits its own records only: no real conflict. */
      const model = new Map<string, { displayName: string; tags: string[]; sha256: string }>();
      const note = (a: Json) =>
        model.set(a.id, { displayName: a.displayName, tags: a.tags, sha256: a.sha256 });
      const desktopOwned: string[] = [];
      const hostedOwned: string[] = [];
      /** Publications by slug and how many versions each must have; each side publishes only its own. */
      const published = new Map<string, { kind: string; versions: number }>();
      const publish = async (
        srv: TestServer,
        bearer: string,
        kind: 'diagrams' | 'charts' | 'artifacts',
        slug: string,
        versions: number,
        dataAsset?: string,
      ) => {
        const api = srv.as({ bearer });
        for (let v = 0; v < versions; v++) {
          const n = (published.get(slug)?.versions ?? 0) + 1;
          const res = await api(n === 1 ? `/api/v1/${kind}` : `/api/v1/${kind}/${slug}`, {
            method: n === 1 ? 'POST' : 'PUT',
            body: JSON.stringify({
              title: `${slug} v${n}`,
              ...(n === 1 && { slug }),
              ...documentOf(kind, n, dataAsset),
            }),
          });
          expect([slug, n, res.status]).toEqual([slug, n, n === 1 ? 201 : 200]);
          published.set(slug, { kind, versions: n });
        }
      };

      let desktop = await startTestServer({ ...ON_FILES, dataDir, whisperModel: fx.model });
      const key = (await desktop.createKeyDetails({ services: [...SERVICE_NAMES] })).bearer;
      const workspaceId = (await desktop.createKeyDetails({ services: [] })).workspaceId;
      const transcripts: Json[] = [];
      for (let i = 0; i < 20; i++) transcripts.push(await queueTranscript(desktop, key, fx.speechBytes));
      for (let i = 0; i < 979; i++) {
        const bytes =
          i % 50 === 7
            ? Buffer.from('bytes many assets share')
            : randomBytes(100 + Math.floor(rand() * 8000));
        const a = await upload(desktop, key, bytes, `file-${i}.bin`, [`batch${i % 7}`]);
        note(a);
        desktopOwned.push(a.id);
      }
      note(await upload(desktop, key, randomBytes(20 << 20), 'large.bin', ['large']));
      const csv = await upload(desktop, key, 'q,r\na,3\nb,5\n', 'numbers.csv');
      note(csv);
      for (let i = 0; i < 3; i++) await publish(desktop, key, 'diagrams', `desk-diagram-${i}`, 3);
      for (let i = 0; i < 2; i++) await publish(desktop, key, 'charts', `desk-chart-${i}`, 2, csv.id);
      for (let i = 0; i < 2; i++) await publish(desktop, key, 'artifacts', `desk-artifact-${i}`, 2);
      for (const t of transcripts) {
        const done = await waitForStatus(desktop, key, t.id, ['completed'], 300_000);
        const audio = (await (
          await desktop.as({ bearer: key })(`/api/v1/assets/${done.audioAssetId}`)
        ).json()) as Json;
        note(audio);
      }
      await connect(desktop, hosted, hostedKey.bearer);
      await desktop.close();

      /** Archive flags by slug: a new version and then an archive (or unarchive) in one round, on either side. */
      const archived = new Map<string, boolean>();
      const publishAndToggle = async (
        srv: TestServer,
        bearer: string,
        kind: 'diagrams' | 'artifacts',
        slug: string,
      ) => {
        await publish(srv, bearer, kind, slug, 1);
        const archive = !archived.get(slug);
        const res = await srv.as({ bearer })(`/api/v1/${kind}/${slug}/${archive ? 'archive' : 'unarchive'}`, {
          method: 'POST',
        });
        expect([slug, res.status]).toEqual([slug, 200]);
        archived.set(slug, archive);
      };
      /** What a publish killed between its two writes leaves on the desktop: version 1, no item. */
      const leaveUnfinishedPublish = (srv: TestServer, id: string) =>
        srv.deps.store.collection(collectionsOf('diagrams').versions, workspaceId).insert({
          id: `${id}@1`,
          publicationId: id,
          version: 1,
          title: 'Killed mid-publish',
          tags: [],
          document: documentOf('diagrams', 1).svg,
          createdAt: new Date().toISOString(),
        });

      const edit = async (srv: TestServer, bearer: string, id: string, label: string) => {
        const res = await srv.as({ bearer })(`/api/v1/assets/${id}`, {
          method: 'PATCH',
          body: JSON.stringify({ displayName: label, tags: [label.replace(/\W+/g, '-')] }),
        });
        if (res.status === 404) return; // not there yet: the other side has not pulled it
        expect(res.status).toBe(200);
        note((await res.json()) as Json);
      };
      const args = ['--workspace', workspaceId, '--data-dir', dataDir, '--json'];
      const kills: string[] = [];
      let expectedMs = 4000;
      for (let k = 0; k < 20; k++) {
        // The first runs only have the initial sync to do, so it is cut off more than once; then both sides change.
        if (k >= 4 && k % 2 === 0) {
          desktop = await startTestServer({ ...ON_FILES, dataDir });
          for (let i = 0; i < 20; i++) {
            const a = await upload(
              desktop,
              key,
              randomBytes(200 + Math.floor(rand() * 4000)),
              `desk-${k}-${i}.bin`,
            );
            note(a);
            desktopOwned.push(a.id);
          }
          if (k % 6 === 0) note(await upload(desktop, key, randomBytes(9 << 20), `desk-large-${k}.bin`));
          for (let i = 0; i < 5; i++) await edit(desktop, key, pick(desktopOwned), `desk edit ${k}.${i}`);
          await publish(desktop, key, 'diagrams', `desk-diagram-${k % 3}`, 1);
          if (k % 4 === 0) await leaveUnfinishedPublish(desktop, `dia_killed${k}`);
          await publishAndToggle(desktop, key, 'artifacts', `desk-artifact-${(k / 2) % 2}`);
          await publish(desktop, key, 'artifacts', `desk-artifact-round-${k}`, 2);
          const doomed = desktopOwned.splice(desktopOwned.length - 1 - Math.floor(rand() * 20), 1)[0];
          expect(
            (await desktop.as({ bearer: key })(`/api/v1/assets/${doomed}`, { method: 'DELETE' })).status,
          ).toBe(204);
          model.delete(doomed);
          await desktop.close();
        }
        if (k >= 4) {
          for (let i = 0; i < 8; i++) {
            const bytes = randomBytes(300 + Math.floor(rand() * 3000));
            const a = await upload(hosted, hostedKey.bearer, bytes, `web-${k}-${i}.bin`);
            note(a);
            hostedOwned.push(a.id);
          }
          if (k === 5) note(await upload(hosted, hostedKey.bearer, randomBytes(12 << 20), 'web-large.bin'));
          for (let i = 0; i < 3; i++)
            await edit(hosted, hostedKey.bearer, pick(hostedOwned), `web edit ${k}.${i}`);
          if (k % 3 === 1)
            await publishAndToggle(hosted, hostedKey.bearer, 'diagrams', `web-diagram-${k % 2}`);
          else await publish(hosted, hostedKey.bearer, 'diagrams', `web-diagram-${k % 2}`, 1);
          const dataThere = await hosted.as({ bearer: hostedKey.bearer })(`/api/v1/assets/${csv.id}`);
          if (k % 3 === 0 && dataThere.status === 200)
            await publish(hosted, hostedKey.bearer, 'charts', `web-chart-${k}`, 1, csv.id);
          const gone = hostedOwned.splice(Math.floor(rand() * hostedOwned.length), 1)[0];
          const res = await hosted.as({ bearer: hostedKey.bearer })(`/api/v1/assets/${gone}`, {
            method: 'DELETE',
          });
          expect(res.status).toBe(204);
          model.delete(gone);
        }

        // A random point of the run: within the time the last run that finished took (kills land in every phase).
        const delay = Math.floor(rand() * 0.85 * expectedMs);
        const run = await runCli(
          args,
          killDuringRun(delay, (ms) => (expectedMs = Math.max(200, ms))),
        );
        if (run.signal) expectedMs *= 1.3; // the work it left, and the next changes, wait for the next run
        const phase = [...run.output.matchAll(/^\s+(plan|upload|push|pull): (.*)$/gm)].at(-1);
        kills.push(
          `${delay} ms in: ${run.signal ?? `exit ${run.code}`}, last seen ${phase ? `${phase[1]} ${phase[2]}` : 'nothing'}`,
        );
        if (run.signal === null && run.code !== 0) throw new Error(`CLI failed:\n${run.output}`);
      }
      console.log(`kills (seed ${seed}):\n  ${kills.join('\n  ')}`);
      expect(kills.filter((k) => k.includes('SIGKILL')).length).toBeGreaterThanOrEqual(10);

      const last = await runCli(args);
      expect(last.code, last.output).toBe(0);
      expect(summaryOf(last).ok).toBe(true);
      const again = await runCli(args);
      expect(summaryOf(again).counts, again.output).toEqual({});

      desktop = await startTestServer({ ...ON_FILES, dataDir });
      cleanups.push(() => desktop.close());
      const here = await listAll(desktop, key, '/api/v1/assets');
      const there = await listAll(hosted, hostedKey.bearer, '/api/v1/assets');
      expect(here.size).toBeGreaterThanOrEqual(1000);
      expect([...here.keys()].sort()).toEqual([...model.keys()].sort());
      expect([...there.keys()].sort()).toEqual([...model.keys()].sort());
      for (const [id, want] of model) {
        expect([id, pickOf(here.get(id)!)]).toEqual([id, want]);
        expect([id, pickOf(there.get(id)!)]).toEqual([id, want]);
        for (const side of [here, there]) {
          const a = side.get(id)!;
          expect([id, a.createdAt, a.filename]).toEqual([
            id,
            here.get(id)!.createdAt,
            here.get(id)!.filename,
          ]);
        }
      }
      for (const side of [here, there])
        for (const [id, a] of side)
          expect([
            side === here ? 'desktop' : 'hosted',
            id,
            sha(Buffer.from(await (await fetch(a.urls.file)).arrayBuffer())),
          ]).toEqual([side === here ? 'desktop' : 'hosted', id, a.sha256]);
      const tHere = await listAll(desktop, key, '/api/v1/transcripts');
      const tThere = await listAll(hosted, hostedKey.bearer, '/api/v1/transcripts');
      expect(tHere.size).toBe(20);
      expect([...tThere.keys()].sort()).toEqual([...tHere.keys()].sort());
      for (const id of tHere.keys()) {
        const a = (await (await desktop.as({ bearer: key })(`/api/v1/transcripts/${id}`)).json()) as Json;
        const b = (await (
          await hosted.as({ bearer: hostedKey.bearer })(`/api/v1/transcripts/${id}`)
        ).json()) as Json;
        for (const f of ['status', 'audioAssetId', 'text', 'duration', 'words', 'segments', 'createdAt'])
          expect([id, f, b[f]]).toEqual([id, f, a[f]]);
      }
      const records = await syncedRecords(desktop, workspaceId);
      expect(records).toEqual(await syncedRecords(hosted, hostedKey.workspaceId));
      expect([...records.keys()].filter((k) => k.includes('-version:')).length).toBe(
        [...published.values()].reduce((sum, p) => sum + p.versions, 0),
      );
      for (const [slug, { kind, versions }] of published)
        for (const [srv, bearer] of [
          [desktop, key],
          [hosted, hostedKey.bearer],
        ] as const) {
          const history = (await (
            await srv.as({ bearer })(`/api/v1/${kind}/${slug}/versions`)
          ).json()) as Json;
          expect([slug, history.data.map((v: Json) => v.version)]).toEqual([
            slug,
            Array.from({ length: versions }, (_, i) => versions - i),
          ]);
        }
      for (const [slug, isArchived] of archived)
        for (const [srv, bearer] of [
          [desktop, key],
          [hosted, hostedKey.bearer],
        ] as const) {
          const { kind, versions } = published.get(slug)!;
          const item = (await (await srv.as({ bearer })(`/api/v1/${kind}/${slug}`)).json()) as Json;
          expect([slug, item.archived, item.latestVersion]).toEqual([slug, isArchived, versions]);
        }
      for (const k of [4, 8, 12, 16]) expect(records.has(`diagram-version:dia_killed${k}@1`)).toBe(false);
      const conflicts = (await (
        await desktop.as(desktop.owner)('/api/v1/sync/conflicts?status=all')
      ).json()) as Json;
      expect(conflicts.data).toEqual([]);
      const staged = hosted.deps.store.collection(stagedBlobs, hostedKey.workspaceId);
      expect(await staged.count()).toBe(0);
    },
  );
});

/** A small valid document of each publishing kind, different for each version. */
function documentOf(kind: 'diagrams' | 'charts' | 'artifacts', n: number, dataAsset?: string): Json {
  if (kind === 'diagrams')
    return {
      svg: `<svg viewBox="0 0 200 60"><rect class="node" x="0" y="0" width="200" height="60"/><text class="label" x="100" y="30">version ${n}</text></svg>`,
    };
  if (kind === 'charts')
    return {
      spec: {
        title: `version ${n}`,
        data: { url: `asset:${dataAsset}` },
        mark: n % 2 ? 'bar' : 'point',
        encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
      },
    };
  return { document: { children: [{ type: 'markdown', text: `Version ${n} of the notes.` }] } };
}

const pickOf = (a: Json) => ({ displayName: a.displayName, tags: a.tags, sha256: a.sha256 });
