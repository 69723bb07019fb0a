// The sync protocol as any client meets it over HTTP (docs/sync.md): hashes computed here from the documented
// rules, not from the server's code.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptsCollection } from '../../../../server/domains/transcripts/collections.js';
import { SERVICE_NAMES } from '../../../../server/http/viewer.js';
import { createWorkspace } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { type Json, upload } from '../../../helpers/sync-pair.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
/** Text of `n` bytes, which the server inspects as the text/plain document the records say it is. */
const text = (n: number) => Buffer.from(randomBytes(n).toString('base64').slice(0, n));

/** Canonical JSON as docs/sync.md defines it: keys sorted at every depth, null and absent fields left out. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Json)[k] != null)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
const recordHash = (kind: string, record: Json) => {
  const { updatedAt: _, ...fields } = record;
  return sha(canonical({ kind, fields }));
};
const pushKey = (i: Json) => sha(`${i.kind}\n${i.id}\n${i.rev}\n${i.sha256}`);
const batchKey = (items: Json[]) => sha(items.map(pushKey).join('\n'));

function assetRecord(bytes: Buffer, extra: Json = {}): Json {
  const at = '2026-05-01T10:00:00.000Z';
  return {
    displayName: 'notes.txt',
    filename: 'notes.txt',
    tags: ['synced'],
    type: 'document',
    contentType: 'text/plain; charset=utf-8',
    size: bytes.length,
    sha256: sha(bytes),
    createdAt: at,
    updatedAt: at,
    ...extra,
  };
}

let srv: TestServer;
let all: string;
let api: ReturnType<TestServer['as']>;
beforeAll(async () => {
  srv = await startTestServer();
  all = await srv.createKey({ services: [...SERVICE_NAMES] });
  api = srv.as({ bearer: all });
});
afterAll(() => srv.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}, bearer = all) =>
  srv.as({ bearer })(path, { method: 'POST', body: JSON.stringify(body), headers });
const push = async (items: Json[], bearer = all) => {
  const res = await post(
    '/api/v1/sync/push',
    { records: items },
    { 'idempotency-key': batchKey(items) },
    bearer,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Json[] }).results;
};

/** Sends blobs in one pack: begin, every part, complete. */
async function sendPack(blobs: Buffer[], partSize = 1024, bearer = all) {
  const begun = await post(
    '/api/v1/sync/packs',
    { blobs: blobs.map((b) => ({ sha256: sha(b), size: b.length })), partSize },
    {},
    bearer,
  );
  expect(begun.status).toBe(201);
  const pack = (await begun.json()) as Json;
  const whole = Buffer.concat(blobs);
  for (let i = 0; i < pack.partCount; i++) {
    const part = whole.subarray(i * partSize, (i + 1) * partSize);
    const res = await srv.as({ bearer })(`/api/v1/sync/packs/${pack.uploadId}/parts/${i}`, {
      method: 'PUT',
      body: new Uint8Array(part),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(200);
  }
  const done = await post(`/api/v1/sync/packs/${pack.uploadId}/complete`, undefined, {}, bearer);
  expect(done.status).toBe(200);
  return { pack, done: (await done.json()) as Json };
}

describe('sync protocol', () => {
  it('info names the workspace, the kinds the key may sync and why not the others', async () => {
    const assetsOnly = await srv.createKeyDetails({ services: ['assets'] });
    const res = await srv.as({ bearer: assetsOnly.bearer })('/api/v1/sync/info');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      workspace: { id: assetsOnly.workspaceId },
      kinds: [
        { kind: 'asset', service: 'assets', allowed: true },
        { kind: 'transcript', service: 'transcription', allowed: false },
        { kind: 'diagram-version', service: 'diagrams', allowed: false },
        { kind: 'diagram', service: 'diagrams', allowed: false },
        { kind: 'chart-version', service: 'charts', allowed: false },
        { kind: 'chart', service: 'charts', allowed: false },
        { kind: 'artifact-version', service: 'artifacts', allowed: false },
        { kind: 'artifact', service: 'artifacts', allowed: false },
      ],
    });
    const { skipped } = (await (
      await srv.as({ bearer: assetsOnly.bearer })('/api/v1/sync/info')
    ).json()) as Json;
    expect(skipped.map((s: Json) => s.kind)).toEqual([
      'transcript',
      'diagram-version',
      'diagram',
      'chart-version',
      'chart',
      'artifact-version',
      'artifact',
    ]);
    expect(skipped[0]).toMatchObject({ service: 'transcription' });
    expect((await fetch(`${srv.url}/api/v1/sync/info`)).status).toBe(401);
  });

  it('pushes an asset once its bytes came in a pack, keeping its id; a retry answers the same', async () => {
    const bytes = text(3000);
    const record = assetRecord(bytes);
    const ref = {
      kind: 'asset',
      id: 'ast_fromdesktop0001',
      rev: 7,
      baseSeq: 0,
      sha256: recordHash('asset', record),
    };
    const item = { ...ref, record };
    const plan = (await (
      await post('/api/v1/sync/plan', {
        records: [ref],
        blobs: [{ sha256: sha(bytes), size: bytes.length }],
      })
    ).json()) as Json;
    expect(plan).toMatchObject({
      records: [{ action: 'push', seq: 0 }],
      missingBlobs: [sha(bytes)],
      totals: { push: 1, missingBytes: 3000 },
    });
    const early = await push([item]);
    expect(early[0]).toMatchObject({ status: 400, outcome: 'failed' });
    expect(early[0].error).toMatch(/has not been uploaded/);

    const { done } = await sendPack([bytes]);
    expect(done).toEqual({ stored: [sha(bytes)], failed: [] });
    const [applied] = await push([item]);
    expect(applied).toMatchObject({ status: 201, outcome: 'applied', sha256: item.sha256 });
    const asset = (await (await api(`/api/v1/assets/${item.id}`)).json()) as Json;
    expect(asset).toMatchObject({
      id: item.id,
      tags: ['synced'],
      createdAt: record.createdAt,
      sha256: sha(bytes),
    });
    expect(sha(Buffer.from(await (await fetch(asset.urls.file)).arrayBuffer()))).toBe(sha(bytes));

    const [again] = await push([item]);
    expect(again).toEqual({ ...applied, status: 200, replayed: true });
    const claimsImage = assetRecord(bytes, { type: 'image', contentType: 'image/png', filename: 'x.png' });
    const [inspected] = await push([
      {
        kind: 'asset',
        id: 'ast_claimsimage01',
        rev: 1,
        baseSeq: 0,
        sha256: recordHash('asset', claimsImage),
        record: claimsImage,
      },
    ]);
    expect(inspected.outcome).toBe('applied');
    expect(inspected.sha256).not.toBe(recordHash('asset', claimsImage)); // what the server made of it
    expect(await (await api('/api/v1/assets/ast_claimsimage01')).json()).toMatchObject({
      type: 'document',
      contentType: 'text/plain; charset=utf-8',
    });
    const replan = (await (
      await post('/api/v1/sync/plan', { records: [ref], blobs: [{ sha256: sha(bytes), size: 3000 }] })
    ).json()) as Json;
    expect(replan).toMatchObject({ records: [{ action: 'unchanged', seq: applied.seq }], missingBlobs: [] });
  });

  it('writes only over the version a push was based on, else answers 409 with the server’s version', async () => {
    const bytes = text(500);
    await sendPack([bytes]);
    const record = assetRecord(bytes, { displayName: 'first' });
    const id = 'ast_conflicting0001';
    const [made] = await push([
      { kind: 'asset', id, rev: 1, baseSeq: 0, sha256: recordHash('asset', record), record },
    ]);
    const web = await api(`/api/v1/assets/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ displayName: 'edited online' }),
    });
    expect(web.status).toBe(200);
    const mine = { ...record, displayName: 'edited on the desktop' };
    const [refused] = await push([
      { kind: 'asset', id, rev: 2, baseSeq: made.seq, sha256: recordHash('asset', mine), record: mine },
    ]);
    expect(refused).toMatchObject({
      status: 409,
      outcome: 'conflict',
      server: { deleted: false, record: { displayName: 'edited online' } },
    });
    expect(refused.server.seq).toBeGreaterThan(made.seq);
    expect(((await (await api(`/api/v1/assets/${id}`)).json()) as Json).displayName).toBe('edited online');
    const [over] = await push([
      {
        kind: 'asset',
        id,
        rev: 3,
        baseSeq: refused.server.seq,
        sha256: recordHash('asset', mine),
        record: mine,
      },
    ]);
    expect(over).toMatchObject({ status: 200, outcome: 'applied' });
    const [gone] = await push([{ kind: 'asset', id, rev: 4, baseSeq: over.seq, sha256: 'deleted' }]);
    expect(gone).toMatchObject({ status: 200, outcome: 'applied' });
    expect((await api(`/api/v1/assets/${id}`)).status).toBe(404);
    const [twice] = await push([{ kind: 'asset', id, rev: 5, baseSeq: 0, sha256: 'deleted' }]);
    expect(twice).toMatchObject({ outcome: 'unchanged', seq: gone.seq });
  });

  it('refuses pushes without a matching Idempotency-Key, with a record that does not hash right, or an invalid one', async () => {
    const bytes = randomBytes(100);
    const record = assetRecord(bytes);
    const item = {
      kind: 'asset',
      id: 'ast_refused0001',
      rev: 1,
      baseSeq: 0,
      sha256: recordHash('asset', record),
      record,
    };
    const none = await post('/api/v1/sync/push', { records: [item] });
    expect(none.status).toBe(400);
    expect(((await none.json()) as Json).error).toMatch(/Idempotency-Key/);
    const wrong = await post('/api/v1/sync/push', { records: [item] }, { 'idempotency-key': sha('x') });
    expect(wrong.status).toBe(400);
    const [tampered] = await push([{ ...item, record: { ...record, tags: ['changed'] } }]);
    expect(tampered).toMatchObject({ status: 400, outcome: 'failed' });
    expect(tampered.error).toMatch(/does not hash/);
    const bad = { ...record, tags: Array.from({ length: 40 }, (_, i) => `t${i}`) };
    const [invalid] = await push([{ ...item, sha256: recordHash('asset', bad), record: bad }]);
    expect(invalid).toMatchObject({ status: 400, outcome: 'failed' });
    expect(invalid.error).toMatch(/tags/);
    const { record: _, ...ref } = item;
    const badId = await post('/api/v1/sync/plan', { records: [{ ...ref, id: '../etc' }] });
    expect(badId.status).toBe(400);
    // A version's id names its publication and number; no other kind's id may look like one.
    const versionIdOnAsset = await post('/api/v1/sync/plan', { records: [{ ...ref, id: 'ast_x@2' }] });
    expect(versionIdOnAsset.status).toBe(400);
    expect(((await versionIdOnAsset.json()) as Json).error).toMatch(/asset's id is letters, digits/);
    const plainIdOnVersion = await post('/api/v1/sync/plan', {
      records: [{ ...ref, kind: 'diagram-version', id: 'dia_x' }],
    });
    expect(plainIdOnVersion.status).toBe(400);
    expect(((await plainIdOnVersion.json()) as Json).error).toMatch(/<publication id>@<n>/);
    const version = await post('/api/v1/sync/plan', {
      records: [{ ...ref, kind: 'diagram-version', id: 'dia_x@2' }],
    });
    expect(version.status).toBe(200);
  });

  it('a key without transcription has its transcript pushes skipped with the reason, the rest goes through', async () => {
    const assetsOnly = await srv.createKey({ services: ['assets'] });
    const record = {
      status: 'completed',
      progress: 100,
      audioAssetId: 'ast_x',
      source: 'transcribe',
      model: 'm.bin',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      text: 'hi',
    };
    const [skipped] = await push(
      [
        {
          kind: 'transcript',
          id: 'trn_skip',
          rev: 1,
          baseSeq: 0,
          sha256: recordHash('transcript', record),
          record,
        },
      ],
      assetsOnly,
    );
    expect(skipped).toMatchObject({ status: 403, outcome: 'skipped', service: 'transcription' });
    const plan = (await (
      await post(
        '/api/v1/sync/plan',
        {
          records: [
            {
              kind: 'transcript',
              id: 'trn_skip',
              rev: 1,
              baseSeq: 0,
              sha256: recordHash('transcript', record),
            },
          ],
        },
        {},
        assetsOnly,
      )
    ).json()) as Json;
    expect(plan).toMatchObject({
      records: [{ action: 'skip' }],
      skipped: [{ kind: 'transcript', service: 'transcription', count: 1 }],
    });
    const packs = await post(
      '/api/v1/sync/packs',
      { blobs: [{ sha256: sha('x'), size: 1 }] },
      {},
      await srv.createKey({ services: ['realtime'] }),
    );
    expect(packs.status).toBe(403);
  });

  it('answers what changed in order, with tombstones and paging, leaving out transcripts still running', async () => {
    const ws = await createWorkspace(srv, srv.owner, 'feed');
    const key = await srv.createKey({ services: [...SERVICE_NAMES], workspace: ws.id });
    const a = await upload(srv, key, 'one', 'one.txt');
    const b = await upload(srv, key, 'two', 'two.txt');
    await srv.as({ bearer: key })(`/api/v1/assets/${a.id}`, { method: 'DELETE' });
    const pending = srv.deps.store.collection(transcriptsCollection, ws.id);
    const at = new Date().toISOString();
    await pending.insert({
      id: 'trn_running',
      status: 'processing',
      progress: 10,
      audioAssetId: b.id,
      source: 'transcribe',
      model: null,
      createdAt: at,
      updatedAt: at,
    });
    const first = (await (
      await srv.as({ bearer: key })('/api/v1/sync/changes?since=0&limit=1')
    ).json()) as Json;
    expect(first).toMatchObject({ more: true, changes: [{ kind: 'asset', id: b.id, deleted: false }] });
    expect(first.changes[0].record).toMatchObject({ sha256: b.sha256, displayName: 'two.txt' });
    const rest = (await (
      await srv.as({ bearer: key })(`/api/v1/sync/changes?since=${first.next}`)
    ).json()) as Json;
    expect(rest).toMatchObject({
      more: false,
      changes: [{ kind: 'asset', id: a.id, deleted: true, sha256: 'deleted', record: null }],
    });
    expect(rest.changes).toHaveLength(1);
    const ahead = await srv.as({ bearer: key })(`/api/v1/sync/changes?since=${rest.head + 1000}`);
    expect(ahead.status).toBe(409);
  });

  it('an empty or malformed since or limit is a 400 naming it, not read as 0', async () => {
    for (const query of [
      'since=',
      'since=%20',
      'since=1e2',
      'since=0x10',
      'since=-1',
      'limit=',
      'limit=2.5',
    ]) {
      const res = await api(`/api/v1/sync/changes?${query}`);
      const body = (await res.json()) as Json;
      expect([query, res.status]).toEqual([query, 400]);
      expect(body.error).toEqual(expect.any(String));
      expect(body.issues).toEqual([
        expect.objectContaining({
          path: query.split('=')[0],
          message: expect.stringMatching(/whole number/),
        }),
      ]);
    }
    expect((await api('/api/v1/sync/changes?since=0&limit=1')).status).toBe(200);
    expect((await api('/api/v1/sync/changes')).status).toBe(200);
  });

  it('stores only blobs whose bytes hash to their name, resumes a pack at its missing parts, and keeps workspaces apart', async () => {
    const good = randomBytes(2500);
    const claimed = randomBytes(1500);
    const begun = (await (
      await post('/api/v1/sync/packs', {
        blobs: [
          { sha256: sha(good), size: 2500 },
          { sha256: sha(claimed), size: 1500 },
        ],
        partSize: 1024,
      })
    ).json()) as Json;
    expect(begun.partCount).toBe(4);
    const whole = Buffer.concat([good, randomBytes(1500)]); // the second blob's bytes are not what was announced
    const put = (i: number) =>
      srv.as({ bearer: all })(`/api/v1/sync/packs/${begun.uploadId}/parts/${i}`, {
        method: 'PUT',
        body: new Uint8Array(whole.subarray(i * 1024, (i + 1) * 1024)),
        headers: { 'content-type': 'application/octet-stream' },
      });
    await put(0);
    await put(2);
    const status = (await (await api(`/api/v1/sync/packs/${begun.uploadId}`)).json()) as Json;
    expect(status).toMatchObject({ status: 'open', missingParts: [1, 3] });
    await put(1);
    await put(3);
    const done = (await (
      await post(`/api/v1/sync/packs/${begun.uploadId}/complete`, undefined)
    ).json()) as Json;
    expect(done.stored).toEqual([sha(good)]);
    expect(done.failed).toEqual([{ sha256: sha(claimed), error: expect.stringMatching(/hash to/) }]);
    expect((await post(`/api/v1/uploads/chunked/${begun.uploadId}/complete`, undefined)).status).toBe(409);

    const ranged = await api(`/api/v1/sync/blobs/${sha(good)}`, { headers: { range: 'bytes=1000-' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(good.subarray(1000))).toBe(true);
    const many = await post('/api/v1/sync/blobs', { blobs: [sha(good), sha(good)] });
    expect(Buffer.from(await many.arrayBuffer()).equals(Buffer.concat([good, good]))).toBe(true);
    const other = await srv.createKey({
      services: [...SERVICE_NAMES],
      workspace: (await createWorkspace(srv, srv.owner, 'other')).id,
    });
    expect((await srv.as({ bearer: other })(`/api/v1/sync/blobs/${sha(good)}`)).status).toBe(404);
    const plan = (await (
      await post('/api/v1/sync/plan', { blobs: [{ sha256: sha(good), size: 2500 }] }, {}, other)
    ).json()) as Json;
    expect(plan.missingBlobs).toEqual([sha(good)]);
  });
});
