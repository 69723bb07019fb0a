// A publish writes its first version, then its item. One killed in between leaves a version whose item never came:
// no publication, so sync never shows it (while it is young its item may still come, so the feed waits before
// it), and a start sweeps it. A version that arrived by sync, waiting there for its item, is no such leftover.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectionsOf } from '../../../../server/domains/publishing/collections.js';
import { SERVICE_NAMES } from '../../../../server/http/viewer.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { type Json, ON_FILES, type SyncPair, upload } from '../../../helpers/sync-pair.js';
import { call, diagramSvg, newVersion, pushDirectly, start } from './publication-sync.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MINUTES_AGO = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

/** What a publish killed between its two writes leaves: version 1 of `id`, no item. */
function leaveVersionWithoutItem(srv: TestServer, workspaceId: string, id: string, createdAt: string) {
  const { versions } = collectionsOf('diagrams');
  return srv.deps.store.collection(versions, workspaceId).insert({
    id: `${id}@1`,
    publicationId: id,
    version: 1,
    title: 'Never finished',
    tags: [],
    document: diagramSvg('never'),
    createdAt,
  });
}

/** The item a publish writes second, written late. */
function finishPublish(srv: TestServer, workspaceId: string, id: string, slug: string) {
  const { items } = collectionsOf('diagrams');
  const at = new Date().toISOString();
  return srv.deps.store.collection(items, workspaceId).insert({
    id,
    slug,
    title: 'Never finished',
    tags: [],
    visibility: 'private',
    archived: false,
    version: 1,
    searchText: 'never finished',
    createdAt: at,
    updatedAt: at,
  });
}

const changes = async (srv: TestServer, bearer: string, since = 0) =>
  (await (await srv.as({ bearer })(`/api/v1/sync/changes?since=${since}`)).json()) as Json;

describe('a publish killed between its version and its item', () => {
  it('leaves a version the change feed never shows; the feed waits before a young one until its item comes', async () => {
    const srv = await startTestServer();
    cleanups.push(() => srv.close());
    const { bearer, workspaceId } = await srv.createKeyDetails({ services: [...SERVICE_NAMES] });
    await leaveVersionWithoutItem(srv, workspaceId, 'dia_dead1', MINUTES_AGO(5));
    const done = await call(srv.as({ bearer }), '/api/v1/diagrams', 'POST', {
      title: 'Done',
      slug: 'done',
      svg: diagramSvg('done'),
    });
    const first = await changes(srv, bearer);
    expect(first.changes.map((c: Json) => c.kind)).toEqual(['diagram-version', 'diagram']);
    expect(first.changes[1].record.slug).toBe(done.slug);
    expect(first).toMatchObject({ more: false, next: first.head });

    const young = await leaveVersionWithoutItem(srv, workspaceId, 'dia_young1', new Date().toISOString());
    const later = await upload(srv, bearer, 'written after', 'after.txt');
    const waiting = await changes(srv, bearer, first.next);
    expect(waiting).toMatchObject({ changes: [], next: young.seq! - 1, more: false });

    await finishPublish(srv, workspaceId, 'dia_young1', 'finished-late');
    const rest = await changes(srv, bearer, waiting.next);
    expect(rest.changes.map((c: Json) => [c.kind, c.id])).toEqual([
      ['diagram-version', 'dia_young1@1'],
      ['asset', later.id],
      ['diagram', 'dia_young1'],
    ]);
  });

  it('leaves a version the desktop never pushes; the push waits before a young one until its item comes', async () => {
    const pair: SyncPair = await start();
    cleanups.push(() => pair.close());
    const { desktop, hosted, hostedKey, workspaceId } = pair;
    const hostedVersions = hosted.deps.store.collection(
      collectionsOf('diagrams').versions,
      hostedKey.workspaceId,
    );
    await leaveVersionWithoutItem(desktop, workspaceId, 'dia_dead2', MINUTES_AGO(5));
    await upload(desktop, pair.desktopKey.bearer, 'one', 'one.txt');
    const first = await pair.sync();
    expect(first, JSON.stringify(first.errors)).toMatchObject({ ok: true, counts: { pushed: 1 } });
    expect(await hostedVersions.get('dia_dead2@1')).toBeUndefined();

    await leaveVersionWithoutItem(desktop, workspaceId, 'dia_young2', new Date().toISOString());
    await upload(desktop, pair.desktopKey.bearer, 'two', 'two.txt');
    expect((await pair.sync()).counts).toEqual({});
    await finishPublish(desktop, workspaceId, 'dia_young2', 'finished-here');
    const after = await pair.sync();
    expect(after, JSON.stringify(after.errors)).toMatchObject({ ok: true, counts: { pushed: 3 } });
    expect(await hostedVersions.get('dia_young2@1')).toMatchObject({ title: 'Never finished' });
  });

  it('leaves a version a start sweeps, keeping a version that arrived by sync and waits for its item', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-unfinished-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let srv = await startTestServer({ ...ON_FILES, dataDir });
    const key = await srv.createKeyDetails({ services: [...SERVICE_NAMES] });
    const { workspaceId } = key;
    await leaveVersionWithoutItem(srv, workspaceId, 'dia_dead3', new Date().toISOString());
    const { document } = await srv.deps.diagrams.check(diagramSvg('arrived'));
    const arrived = { title: 'Arrived', tags: [], document, createdAt: MINUTES_AGO(60) };
    const res = await pushDirectly({ hosted: srv, hostedKey: key }, [
      newVersion({ hosted: srv }, 'diagram-version', 'dia_waits1@1', arrived),
    ]);
    expect(((await res.json()) as Json).results[0]).toMatchObject({ outcome: 'applied' });
    await srv.close();

    srv = await startTestServer({ ...ON_FILES, dataDir });
    cleanups.push(() => srv.close());
    await srv.server.sweptAtStart();
    const versions = srv.deps.store.collection(collectionsOf('diagrams').versions, workspaceId);
    expect(await versions.get('dia_dead3@1')).toBeUndefined();
    expect(await versions.get('dia_waits1@1')).toMatchObject({ title: 'Arrived' });
    expect(srv.logs.join('\n')).toMatch(/Swept 1 versions of publishes never finished/);
  });
});
