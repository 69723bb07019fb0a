// Sync between two real Folio instances over HTTP: a desktop one (file backend) and a hosted one (the test run's
// backend). What a user would notice: everything arrives, byte for byte, edits travel both ways, deletes too, a
// second run changes nothing, an edit on both sides leaves one winner and one kept copy, and a key without a
// service syncs the rest and says what it skipped.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Json, listAll, type SyncPair, startSyncPair, upload } from '../../../helpers/sync-pair.js';
import {
  engineBuilt,
  type Fixtures,
  makeFixtures,
  queueTranscript,
  waitForStatus,
} from '../../../helpers/transcription.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

async function bytesOf(url: string): Promise<Buffer> {
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}

async function patch(srv: SyncPair['hosted'], bearer: string, id: string, body: Json) {
  const res = await srv.as({ bearer })(`/api/v1/assets/${id}`, {
    method: 'PATCH',
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

async function remove(srv: SyncPair['hosted'], bearer: string, path: string) {
  expect((await srv.as({ bearer })(path, { method: 'DELETE' })).status).toBe(204);
}

async function conflicts(p: SyncPair, status = 'open') {
  const res = await p.desktop.as(p.desktop.owner)(`/api/v1/sync/conflicts?status=${status}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Json[] }).data;
}

describe('sync between a desktop and a hosted Folio', () => {
  it('pushes every asset with its bytes, tags and names, keeping the desktop’s ids', async () => {
    pair = await startSyncPair();
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    const made: Json[] = [];
    for (let i = 0; i < 12; i++)
      made.push(
        await upload(desktop, desktopKey.bearer, `file ${i} `.repeat(50 * (i + 1)), `f${i}.txt`, [
          `t${i % 3}`,
        ]),
      );
    made.push(await upload(desktop, desktopKey.bearer, 'same bytes', 'dup-a.txt'));
    made.push(await upload(desktop, desktopKey.bearer, 'same bytes', 'dup-b.txt'));
    const summary = await pair.sync();
    expect(summary).toMatchObject({ ok: true, errors: [] });
    expect(summary.counts).toMatchObject({ pushed: 14, blobsUploaded: 13 });
    const there = await listAll(hosted, hostedKey.bearer, '/api/v1/assets');
    expect([...there.keys()].sort()).toEqual(made.map((a) => a.id).sort());
    for (const a of made) {
      const copy = there.get(a.id)!;
      expect(copy).toMatchObject({
        displayName: a.displayName,
        filename: a.filename,
        tags: a.tags,
        type: a.type,
        size: a.size,
        sha256: a.sha256,
        createdAt: a.createdAt,
      });
      expect(sha(await bytesOf(copy.urls.file))).toBe(a.sha256);
    }
  });

  it('a second run changes nothing on either side, and neither does a full re-plan', async () => {
    pair = await startSyncPair();
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    for (let i = 0; i < 5; i++) await upload(desktop, desktopKey.bearer, `x${i}`, `x${i}.txt`);
    expect((await pair.sync()).ok).toBe(true);
    const head = async () =>
      ((await (await hosted.as({ bearer: hostedKey.bearer })('/api/v1/sync/info')).json()) as Json).head;
    const seqs = async () =>
      (
        await desktop.deps.store.changes(pair!.workspaceId, {
          since: 0,
          limit: 1000,
          collections: ['assets'],
        })
      ).changes;
    const before = { head: await head(), local: await seqs() };
    const second = await pair.sync();
    expect(second).toMatchObject({ ok: true, counts: {} });
    const full = await pair.sync(true);
    expect(full.ok).toBe(true);
    expect(full.counts).toEqual({ unchanged: 5 });
    expect({ head: await head(), local: await seqs() }).toEqual(before);
  });

  it('pulls what changed on the hosted side: new assets with their bytes, edits and deletes', async () => {
    pair = await startSyncPair();
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    const keep = await upload(desktop, desktopKey.bearer, 'kept', 'kept.txt');
    const gone = await upload(desktop, desktopKey.bearer, 'gone', 'gone.txt');
    expect((await pair.sync()).ok).toBe(true);
    const web = await upload(hosted, hostedKey.bearer, Buffer.alloc(300_000, 7), 'from-web.bin', ['web']);
    await patch(hosted, hostedKey.bearer, keep.id, {
      tags: ['edited', 'online'],
      displayName: 'Kept, renamed',
    });
    await remove(hosted, hostedKey.bearer, `/api/v1/assets/${gone.id}`);
    const summary = await pair.sync();
    expect(summary).toMatchObject({ ok: true });
    expect(summary.counts).toMatchObject({ pulled: 2, deletedHere: 1, blobsDownloaded: 1 });
    const here = await listAll(desktop, desktopKey.bearer, '/api/v1/assets');
    expect([...here.keys()].sort()).toEqual([keep.id, web.id].sort());
    expect(here.get(keep.id)).toMatchObject({ displayName: 'Kept, renamed', tags: ['edited', 'online'] });
    expect(here.get(web.id)).toMatchObject({ sha256: web.sha256, tags: ['web'], createdAt: web.createdAt });
    expect(sha(await bytesOf(here.get(web.id)!.urls.file))).toBe(web.sha256);
    expect((await pair.sync()).counts).toEqual({});
  });

  it('pushes deletes as tombstones', async () => {
    pair = await startSyncPair();
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    const a = await upload(desktop, desktopKey.bearer, 'a', 'a.txt');
    const b = await upload(desktop, desktopKey.bearer, 'b', 'b.txt');
    await pair.sync();
    await remove(desktop, desktopKey.bearer, `/api/v1/assets/${a.id}`);
    expect((await pair.sync()).counts).toMatchObject({ pushed: 1 });
    expect([...(await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).keys()]).toEqual([b.id]);
  });

  it('the same asset edited on both sides: the hosted edit wins everywhere and the desktop’s is kept as a copy', async () => {
    pair = await startSyncPair();
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    const a = await upload(desktop, desktopKey.bearer, 'shared', 'shared.txt', ['start']);
    await pair.sync();
    await patch(desktop, desktopKey.bearer, a.id, { displayName: 'Desktop name', tags: ['desk'] });
    await patch(hosted, hostedKey.bearer, a.id, { displayName: 'Web name', tags: ['web'] });
    const summary = await pair.sync();
    expect(summary.counts).toMatchObject({ conflicts: 1 });
    const winner = { displayName: 'Web name', tags: ['web'] };
    expect((await listAll(desktop, desktopKey.bearer, '/api/v1/assets')).get(a.id)).toMatchObject(winner);
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(a.id)).toMatchObject(winner);
    const open = await conflicts(pair);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      kind: 'asset',
      recordId: a.id,
      status: 'open',
      copy: { deleted: false, record: { displayName: 'Desktop name', tags: ['desk'] } },
      winner: { deleted: false, record: winner },
    });
    expect((await pair.sync()).counts).toEqual({});
    expect(await conflicts(pair)).toHaveLength(1);

    const resolved = await desktop.as(desktop.owner)(`/api/v1/sync/conflicts/${open[0].id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ keep: 'copy' }),
    });
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({ status: 'resolved', resolution: 'copy' });
    expect((await pair.sync()).counts).toMatchObject({ pushed: 1 });
    const mine = { displayName: 'Desktop name', tags: ['desk'] };
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(a.id)).toMatchObject(mine);
    expect(await conflicts(pair)).toHaveLength(0);
    expect(await conflicts(pair, 'resolved')).toHaveLength(1);
    const again = await desktop.as(desktop.owner)(`/api/v1/sync/conflicts/${open[0].id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ keep: 'winner' }),
    });
    expect(again.status).toBe(409);
  });

  it('an edit against a delete loses nothing: the bytes of a deleted-but-edited asset are kept and can come back', async () => {
    pair = await startSyncPair();
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    const edited = await upload(desktop, desktopKey.bearer, Buffer.alloc(50_000, 3), 'edited-here.bin');
    const deletedHere = await upload(desktop, desktopKey.bearer, 'deleted here', 'deleted-here.txt');
    await pair.sync();
    await remove(hosted, hostedKey.bearer, `/api/v1/assets/${edited.id}`);
    await patch(desktop, desktopKey.bearer, edited.id, { tags: ['my edit'] });
    await remove(desktop, desktopKey.bearer, `/api/v1/assets/${deletedHere.id}`);
    await patch(hosted, hostedKey.bearer, deletedHere.id, { tags: ['their edit'] });
    expect((await pair.sync()).counts).toMatchObject({ conflicts: 2 });

    const here = await listAll(desktop, desktopKey.bearer, '/api/v1/assets');
    expect(here.has(edited.id)).toBe(false); // the hosted delete won
    expect(here.get(deletedHere.id)).toMatchObject({ tags: ['their edit'] }); // the hosted edit won, bytes fetched
    expect(sha(await bytesOf(here.get(deletedHere.id)!.urls.file))).toBe(deletedHere.sha256);
    const open = await conflicts(pair);
    const kept = open.find((c) => c.recordId === edited.id)!;
    expect(kept).toMatchObject({
      copy: { deleted: false, hasBytes: true, record: { tags: ['my edit'] } },
      winner: { deleted: true },
    });
    expect(open.find((c) => c.recordId === deletedHere.id)).toMatchObject({ copy: { deleted: true } });

    await desktop.as(desktop.owner)(`/api/v1/sync/conflicts/${kept.id}/resolve`, {
      method: 'POST',
      body: JSON.stringify({ keep: 'copy' }),
    });
    expect((await pair.sync()).counts).toMatchObject({ pushed: 1 });
    const back = (await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(edited.id)!;
    expect(back).toMatchObject({ tags: ['my edit'], sha256: edited.sha256 });
    expect(sha(await bytesOf(back.urls.file))).toBe(edited.sha256);
  });

  it('a key without transcription syncs the assets and reports exactly which transcripts it skipped and why', async () => {
    pair = await startSyncPair({ services: ['assets'] });
    const { desktop, hosted, desktopKey, hostedKey, workspaceId } = pair;
    await upload(desktop, desktopKey.bearer, 'an asset', 'a.txt');
    const transcripts = desktop.deps.store.collection(
      desktop.deps.sync.kinds.of('transcript').collection,
      workspaceId,
    );
    await transcripts.insert(settledTranscript('trn_skipped1', 'ast_none'));
    const summary = await pair.sync();
    expect(summary.ok).toBe(true);
    expect(summary.skipped[0]).toEqual({
      kind: 'transcript',
      service: 'transcription',
      count: 1,
      reason: 'This key is not enabled for the transcription service, so transcript records do not sync',
    });
    // Nothing of the publishing kinds exists here, so none is counted as skipped.
    expect(summary.skipped.slice(1).every((s) => s.count === 0)).toBe(true);
    expect(summary.counts).toMatchObject({ pushed: 1 });
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).size).toBe(1);
    const status = (await (await desktop.as(desktop.owner)('/api/v1/sync/status')).json()) as Json;
    expect(status.lastRun.skipped[0]).toMatchObject({ kind: 'transcript', count: 1 });
  });
});

describe('large records', () => {
  it('a transcript too large to send inline travels as a blob in a pack, with a key that has only transcription', async () => {
    pair = await startSyncPair({ services: ['transcription'] });
    const { desktop, hosted, hostedKey, workspaceId } = pair;
    const words = Array.from({ length: 12_000 }, (_, i) => ({
      word: ` word${i}`,
      start: i * 0.3,
      end: i * 0.3 + 0.25,
    }));
    const big = {
      ...settledTranscript('trn_longinterview', 'ast_notsynced'),
      words,
      text: words.map((w) => w.word).join(''),
    };
    const transcripts = desktop.deps.store.collection(
      desktop.deps.sync.kinds.of('transcript').collection,
      workspaceId,
    );
    await transcripts.insert(big);
    expect(JSON.stringify(big).length).toBeGreaterThan(256 << 10);
    const summary = await pair.sync();
    expect(summary).toMatchObject({ ok: true, counts: { pushed: 1, blobsUploaded: 1 } });
    expect(summary.skipped[0]).toMatchObject({ kind: 'asset', service: 'assets', count: 0 });
    expect(summary.skipped.slice(1).map((s) => [s.kind, s.count])).toEqual(
      ['diagram-version', 'diagram', 'chart-version', 'chart', 'artifact-version', 'artifact'].map((k) => [
        k,
        0,
      ]),
    );
    const there = (await (
      await hosted.as({ bearer: hostedKey.bearer })('/api/v1/transcripts/trn_longinterview')
    ).json()) as Json;
    expect(there.words).toEqual(words);
    expect((await pair.sync()).counts).toEqual({});
  });
});

describe.skipIf(!engineBuilt)('transcripts', () => {
  let fx: Fixtures;
  beforeAll(() => {
    fx = makeFixtures();
  });
  afterAll(() => fx.cleanup());

  it('sync with their words and their audio, and are never queued again on the hosted side', async () => {
    pair = await startSyncPair({ desktop: { whisperModel: fx.model } });
    const { desktop, hosted, desktopKey, hostedKey } = pair;
    const queued = await queueTranscript(desktop, desktopKey.bearer, fx.speechBytes);
    const done = await waitForStatus(desktop, desktopKey.bearer, queued.id, ['completed']);
    const first = await pair.sync();
    expect(first.errors).toEqual([]);
    expect(first).toMatchObject({ ok: true, counts: { pushed: 2 } });
    const res = await hosted.as({ bearer: hostedKey.bearer })(`/api/v1/transcripts/${done.id}`);
    expect(res.status).toBe(200);
    const there = (await res.json()) as Json;
    expect(there).toMatchObject({
      status: 'completed',
      audioAssetId: done.audioAssetId,
      text: done.text,
      duration: done.duration,
      words: done.words,
      segments: done.segments,
    });
    const audio = (await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).get(done.audioAssetId)!;
    expect(sha(await bytesOf(audio.urls.file))).toBe(sha(fx.speechBytes));
    expect((await pair.sync()).counts).toEqual({});
  });
});

function settledTranscript(id: string, audioAssetId: string) {
  const at = new Date().toISOString();
  return {
    id,
    status: 'completed' as const,
    progress: 100,
    audioAssetId,
    source: 'transcribe' as const,
    text: 'hello',
    words: [{ word: 'hello', start: 0, end: 0.5 }],
    segments: [{ id: 0, start: 0, end: 0.5, text: 'hello' }],
    model: 'micro.bin',
    createdAt: at,
    updatedAt: at,
    completedAt: at,
  };
}
