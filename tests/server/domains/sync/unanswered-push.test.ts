// A push the server applied but whose answer the desktop never recorded (the app was killed in between), followed
// by another edit here: the next run learns the server took that push and sends the new edit over it. No conflict
// is made up, and neither edit is lost.
import { afterEach, expect, it } from 'vitest';
import { syncState } from '../../../../server/domains/sync/collections.js';
import { type Json, listAll, type SyncPair, startSyncPair, upload } from '../../../helpers/sync-pair.js';

let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

async function patch(srv: SyncPair['desktop'], bearer: string, id: string, body: Json) {
  const res = await srv.as({ bearer })(`/api/v1/assets/${id}`, {
    method: 'PATCH',
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

it('an edit after a push whose answer was lost goes over it, with no conflict', async () => {
  pair = await startSyncPair();
  const { desktop, hosted, desktopKey, hostedKey, workspaceId } = pair;
  const a = await upload(desktop, desktopKey.bearer, 'notes', 'notes.txt');
  await pair.sync();
  const states = desktop.deps.store.collection(syncState, workspaceId);
  const before = (await states.get(`asset:${a.id}`))!;

  await patch(desktop, desktopKey.bearer, a.id, { displayName: 'First edit' });
  expect((await pair.sync()).counts).toMatchObject({ pushed: 1 });
  const sent = (await states.get(`asset:${a.id}`))!;
  // What a run killed between sending that push and recording its answer leaves: the old agreement, the push noted.
  await states.update(sent.id, {
    remoteSeq: before.remoteSeq,
    remoteHash: before.remoteHash,
    localSeq: before.localSeq,
    localHash: before.localHash,
    pending: { rev: sent.localSeq, sha256: sent.localHash },
  });

  await patch(desktop, desktopKey.bearer, a.id, { displayName: 'Second edit', tags: ['later'] });
  const summary = await pair.sync();
  expect(summary.counts).toMatchObject({ pushed: 1 });
  expect(summary.counts.conflicts ?? 0).toBe(0);
  const want = { displayName: 'Second edit', tags: ['later'] };
  expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(a.id)).toMatchObject(want);
  expect((await listAll(desktop, desktopKey.bearer, '/api/v1/assets')).get(a.id)).toMatchObject(want);
  const open = await desktop.as(desktop.owner)('/api/v1/sync/conflicts?status=all');
  expect(((await open.json()) as { data: Json[] }).data).toEqual([]);
  expect((await pair.sync()).counts).toEqual({});
});
