// A pull killed after it wrote a server version here but before it recorded the agreement: the next run must not
// take the written copy for a local edit. The random kills of sync-crash.test.ts met this once (a conflict when the
// hosted side then deleted the record); here the kill lands exactly there.
import { afterEach, describe, expect, it } from 'vitest';
import { syncSettings, syncState } from '../../../../server/domains/sync/collections.js';
import { listAll, type SyncPair, startSyncPair, upload } from '../../../helpers/sync-pair.js';

let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

/** Puts the desktop's bookkeeping of `recordId` back to what it was while its pull was being written. */
async function killedWhileWriting(p: SyncPair, recordId: string) {
  const { store, sync } = p.desktop.deps;
  const states = store.collection(syncState, p.workspaceId);
  const agreed = (await states.get(`asset:${recordId}`))!;
  expect(agreed.pulling ?? null).toBeNull();
  const absent = sync.kinds.hash('asset', null);
  await states.update(agreed.id, {
    remoteSeq: 0,
    remoteHash: '',
    localSeq: 0,
    localHash: absent,
    pulling: agreed.remoteHash,
  });
  await store.collection(syncSettings, p.workspaceId).update('sync', { remoteSince: 0 });
}

describe('a pull killed between its write and its bookkeeping', () => {
  it('then deleted on the hosted side: the next run deletes the copy here, with no conflict', async () => {
    pair = await startSyncPair();
    const asset = await upload(pair.hosted, pair.hostedKey.bearer, 'made on the hosted side', 'hosted.txt');
    const first = await pair.sync();
    expect(first, JSON.stringify(first.errors)).toMatchObject({ ok: true, errors: [] });
    expect([...(await listAll(pair.desktop, pair.desktopKey.bearer, '/api/v1/assets')).keys()]).toEqual([
      asset.id,
    ]);
    await killedWhileWriting(pair, asset.id);
    const gone = await pair.hosted.as({ bearer: pair.hostedKey.bearer })(`/api/v1/assets/${asset.id}`, {
      method: 'DELETE',
    });
    expect(gone.status).toBe(204);

    const next = await pair.sync();
    expect(next, JSON.stringify(next.errors)).toMatchObject({ ok: true, errors: [] });
    expect(next.counts.conflicts).toBeUndefined();
    expect((await listAll(pair.desktop, pair.desktopKey.bearer, '/api/v1/assets')).size).toBe(0);
    const conflicts = await pair.desktop.as(pair.desktop.owner)('/api/v1/sync/conflicts?status=all');
    expect(((await conflicts.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('then edited on the hosted side: the next run takes the edit, and pushes nothing back', async () => {
    pair = await startSyncPair();
    const asset = await upload(pair.hosted, pair.hostedKey.bearer, 'made on the hosted side', 'hosted.txt');
    expect((await pair.sync()).ok).toBe(true);
    await killedWhileWriting(pair, asset.id);
    const renamed = await pair.hosted.as({ bearer: pair.hostedKey.bearer })(`/api/v1/assets/${asset.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ tags: ['edited-there'] }),
    });
    expect(renamed.status).toBe(200);

    const next = await pair.sync();
    expect(next, JSON.stringify(next.errors)).toMatchObject({ ok: true, errors: [] });
    expect(next.counts.conflicts).toBeUndefined();
    expect(next.counts.pushed).toBeUndefined();
    const here = (await listAll(pair.desktop, pair.desktopKey.bearer, '/api/v1/assets')).get(asset.id);
    expect(here?.tags).toEqual(['edited-there']);
  });
});
