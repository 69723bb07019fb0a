// An item's archived flag travels; its latest number and title follow its versions on each side. A version that
// arrives raises its item there, and that is no change of the item's own: the item's push in the same run (or in
// the run after one killed between the two) is not behind it, so no conflict is made up.
import { afterEach, describe, expect, it } from 'vitest';
import { collectionsOf } from '../../../../server/domains/publishing/collections.js';
import { syncSettings, syncState } from '../../../../server/domains/sync/collections.js';
import type { Json, SyncPair } from '../../../helpers/sync-pair.js';
import { call, diagramSvg, newVersion, openConflicts, pushDirectly, start } from './publication-sync.js';

let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

const notes = (text: string) => ({ document: { children: [{ type: 'markdown', text }] } });

/** Artifact `slug` published (v1) on `side` and synced. */
async function publishedAndSynced(p: SyncPair, side: 'desktop' | 'hosted', slug: string) {
  const bearer = side === 'desktop' ? p.desktopKey.bearer : p.hostedKey.bearer;
  const api = p[side].as({ bearer });
  await call(api, '/api/v1/artifacts', 'POST', { title: 'Notes', slug, ...notes('one') });
  const first = await p.sync();
  expect(first, JSON.stringify(first.errors)).toMatchObject({ ok: true, errors: [] });
  return api;
}

/** What a publish killed between its two writes leaves on the desktop, young: a version without its item. */
async function leaveUnfinishedPublish(p: SyncPair) {
  const versions = p.desktop.deps.store.collection(collectionsOf('diagrams').versions, p.workspaceId);
  await versions.insert({
    id: 'dia_unfinished1@1',
    publicationId: 'dia_unfinished1',
    version: 1,
    title: 'Killed mid-publish',
    tags: [],
    document: diagramSvg('killed'),
    createdAt: new Date().toISOString(),
  });
  return versions;
}

async function expectBothSides(p: SyncPair, slug: string, want: Json) {
  for (const [srv, bearer] of [
    [p.desktop, p.desktopKey.bearer],
    [p.hosted, p.hostedKey.bearer],
  ] as const)
    expect(await call(srv.as({ bearer }), `/api/v1/artifacts/${slug}`, 'GET')).toMatchObject(want);
  expect(await openConflicts(p, 'all')).toEqual([]);
}

// Each test starts a desktop and a hosted server and renders in fresh render processes: 10-20 s alone, about three
// times that while the whole suite shares two cores.
const TWO_SERVERS = { timeout: 180_000 };

describe('an archive after a new version', TWO_SERVERS, () => {
  it('made on the desktop syncs in one run: both sides archived at version 2, no conflict', async () => {
    pair = await start();
    const api = await publishedAndSynced(pair, 'desktop', 'archived-after');
    await call(api, '/api/v1/artifacts/archived-after', 'PUT', notes('two'));
    await call(api, '/api/v1/artifacts/archived-after/archive', 'POST');

    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    expect(summary.counts).toEqual({ pushed: 2 });
    await expectBothSides(pair, 'archived-after', { archived: true, latestVersion: 2 });
    expect((await pair.sync()).counts).toEqual({});
  });

  it('made on the desktop, whose version alone got through before a run died, syncs the archive next run', async () => {
    pair = await start();
    const { desktop, workspaceId } = pair;
    const api = await publishedAndSynced(pair, 'desktop', 'half-sent');
    await call(api, '/api/v1/artifacts/half-sent', 'PUT', notes('two'));
    await call(api, '/api/v1/artifacts/half-sent/archive', 'POST');
    // What the dead run sent: version 2, as the desktop's kinds make its record.
    const adapter = desktop.deps.sync.kinds.of('artifact-version');
    const rows = await desktop.deps.store.collection(adapter.collection, workspaceId).all({ version: 2 });
    expect(rows).toHaveLength(1);
    const res = await pushDirectly(pair, [
      newVersion(pair, 'artifact-version', rows[0].id, adapter.payload(rows[0])),
    ]);
    expect(((await res.json()) as Json).results[0]).toMatchObject({ outcome: 'applied' });

    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    expect(summary.counts).toMatchObject({ pushed: 1 });
    expect(summary.counts.conflicts).toBeUndefined();
    await expectBothSides(pair, 'half-sent', { archived: true, latestVersion: 2 });
  });

  it('made on the desktop, whose item waits behind a young unfinished publish while its version goes, syncs with no conflict', async () => {
    pair = await start();
    const api = await publishedAndSynced(pair, 'desktop', 'held-back');
    await call(api, '/api/v1/artifacts/held-back', 'PUT', notes('two'));
    // A publish killed between its two writes, young enough that its item may still come: the feed waits before it,
    // so this run sends version 2 (which raises the item there) and holds the archive that was written after it.
    const unfinished = await leaveUnfinishedPublish(pair);
    await call(api, '/api/v1/artifacts/held-back/archive', 'POST');

    const held = await pair.sync();
    expect(held, JSON.stringify(held.errors)).toMatchObject({ ok: true, errors: [] });
    expect(held.counts.conflicts).toBeUndefined();
    await unfinished.remove('dia_unfinished1@1'); // what the sweep does once it is too old to be under way
    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    await expectBothSides(pair, 'held-back', { archived: true, latestVersion: 2 });
  });

  it('made on the desktop after a first push whose answer was lost, held behind a young unfinished publish, makes no conflict', async () => {
    pair = await start();
    const { desktop, workspaceId } = pair;
    const api = await publishedAndSynced(pair, 'desktop', 'unanswered');
    const [item] = await desktop.deps.store
      .collection(collectionsOf('artifacts').items, workspaceId)
      .all({ slug: 'unanswered' });
    const states = desktop.deps.store.collection(syncState, workspaceId);
    const sent = (await states.get(`artifact:${item.id}`))!;
    // What a run killed between the item's first push and its answer leaves: the push noted, nothing agreed, and
    // the pull not yet past it.
    await states.update(sent.id, {
      remoteSeq: 0,
      remoteHash: '',
      localSeq: 0,
      localHash: '',
      pending: { rev: sent.localSeq, sha256: sent.localHash },
    });
    await desktop.deps.store.collection(syncSettings, workspaceId).update('sync', { remoteSince: 0 });
    const unfinished = await leaveUnfinishedPublish(pair);
    await call(api, '/api/v1/artifacts/unanswered/archive', 'POST');

    const held = await pair.sync();
    expect(held, JSON.stringify(held.errors)).toMatchObject({ ok: true, errors: [] });
    expect(held.counts.conflicts).toBeUndefined();
    await unfinished.remove('dia_unfinished1@1');
    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    await expectBothSides(pair, 'unanswered', { archived: true, latestVersion: 1 });
  });

  for (const side of ['desktop', 'hosted'] as const) {
    const other = side === 'desktop' ? 'hosted' : 'desktop';
    it(`alone, made on the ${side} side, syncs`, async () => {
      pair = await start();
      const api = await publishedAndSynced(pair, side, `alone-${side}`);
      await call(api, `/api/v1/artifacts/alone-${side}/archive`, 'POST');
      const summary = await pair.sync();
      expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
      await expectBothSides(pair, `alone-${side}`, { archived: true, latestVersion: 1 });
    });

    it(`made on the ${side} side while the ${other} side publishes a new version: both arrive, no conflict`, async () => {
      pair = await start();
      const api = await publishedAndSynced(pair, side, `crossed-${side}`);
      const bearer = other === 'desktop' ? pair.desktopKey.bearer : pair.hostedKey.bearer;
      await call(pair[other].as({ bearer }), `/api/v1/artifacts/crossed-${side}`, 'PUT', notes('two'));
      await call(api, `/api/v1/artifacts/crossed-${side}/archive`, 'POST');
      const summary = await pair.sync();
      expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
      await expectBothSides(pair, `crossed-${side}`, { archived: true, latestVersion: 2 });
    });
  }

  it('made on the hosted side syncs down: archived at version 2, no conflict', async () => {
    pair = await start();
    const web = await publishedAndSynced(pair, 'hosted', 'archived-there');
    await call(web, '/api/v1/artifacts/archived-there', 'PUT', notes('two'));
    await call(web, '/api/v1/artifacts/archived-there/archive', 'POST');
    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    await expectBothSides(pair, 'archived-there', { archived: true, latestVersion: 2 });
    expect((await pair.sync()).counts).toEqual({});
  });
});
