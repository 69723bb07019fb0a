import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../../../helpers/factories.js';
import { hostedTests } from '../../../../helpers/hosted/backend.js';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { blobKeys } from '../../../../helpers/stored.js';
import {
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
  sha256,
  waitForStatus,
} from '../../../../helpers/transcription.js';

const PART = 4096;

describe.skipIf(!engineBuilt)('chunked upload', () => {
  let fx: Fixtures;
  let srv: TestServer;
  /** Where the file backend keeps an asset's bytes. */
  const assetPath = async (workspaceId: string, assetId: string) =>
    (await srv.deps.assets.localFile(workspaceId, assetId)).path;
  let key: string;

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer({ whisperModel: fx.model, sweepMs: 100 });
    key = await srv.createKey({ services: ['transcription'] });
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  const api = (bearer = key) => srv.as({ bearer });
  const begin = async (body: Json, bearer = key) => {
    const res = await api(bearer)('/api/v1/uploads/chunked', { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const beginFor = async (bytes: Buffer, extra: Json = {}) => {
    const res = await begin({
      filename: 'talk.wav',
      contentType: 'audio/wav',
      size: bytes.length,
      partSize: PART,
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const put = (
    uploadId: string,
    index: number | string,
    body: Buffer,
    headers: Record<string, string> = {},
    bearer = key,
  ) =>
    api(bearer)(`/api/v1/uploads/chunked/${uploadId}/parts/${index}`, {
      method: 'PUT',
      body: new Uint8Array(body),
      headers: { 'content-type': 'application/octet-stream', ...headers },
    });
  const part = (bytes: Buffer, i: number) => bytes.subarray(i * PART, Math.min(bytes.length, (i + 1) * PART));
  /**
   * Parts wait on disk beside file blobs (written in place into parts.bin, each one marked `<index>.done` once
   * received), in the bucket on the hosted backend (part-store.ts).
   */
  const partsDir = (workspaceId: string, uploadId: string) =>
    join(srv.dataDir, 'chunked', workspaceId, uploadId);
  const partsPrefix = (workspaceId: string, uploadId: string) =>
    `workspaces/${workspaceId}/chunked/${uploadId}`;
  const storedParts = async (workspaceId: string, uploadId: string) => {
    if (!hostedTests)
      return existsSync(partsDir(workspaceId, uploadId))
        ? readdirSync(partsDir(workspaceId, uploadId)).filter((name) => name !== 'parts.bin')
        : [];
    return (await blobKeys(srv, partsPrefix(workspaceId, uploadId))).map((k) =>
      k.slice(k.lastIndexOf('/') + 1),
    );
  };
  const storedPart = async (workspaceId: string, uploadId: string, index: number) => {
    if (!hostedTests) {
      const all = readFileSync(join(partsDir(workspaceId, uploadId), 'parts.bin'));
      return all.subarray(index * PART, (index + 1) * PART);
    }
    return buffer((await srv.deps.store.blobs.get(`${partsPrefix(workspaceId, uploadId)}/${index}`))!);
  };
  const hasParts = async (workspaceId: string, uploadId: string) =>
    hostedTests
      ? (await storedParts(workspaceId, uploadId)).length > 0
      : existsSync(partsDir(workspaceId, uploadId));
  const complete = (uploadId: string, bearer = key) =>
    api(bearer)(`/api/v1/uploads/chunked/${uploadId}/complete`, { method: 'POST' });

  it('reassembles parts sent out of order and in parallel into an asset and a pending transcript that completes', async () => {
    const bytes = fx.speechBytes;
    const up = await beginFor(bytes, { sha256: sha256(bytes) });
    expect(up.partSize).toBe(PART);
    expect(up.partCount).toBe(Math.ceil(bytes.length / PART));
    expect(Date.parse(up.expiresAt)).toBeGreaterThan(Date.now());
    const order = [...Array(up.partCount).keys()].reverse();
    const results = await Promise.all(
      order.map((i) => put(up.uploadId, i, part(bytes, i), { 'x-part-sha256': sha256(part(bytes, i)) })),
    );
    expect(results.map((r) => r.status)).toEqual(order.map(() => 200));
    const status = (await (await api()(`/api/v1/uploads/chunked/${up.uploadId}`)).json()) as Json;
    expect(status.receivedParts.map((p: Json) => p.index)).toEqual([...Array(up.partCount).keys()]);
    expect(status.missingParts).toEqual([]);

    const done = await complete(up.uploadId);
    expect(done.status).toBe(200);
    const { transcript, asset } = (await done.json()) as Json;
    expect(asset).toMatchObject({
      type: 'audio',
      size: bytes.length,
      sha256: sha256(bytes),
      filename: 'talk.wav',
    });
    expect(transcript.audioAssetId).toBe(asset.id);
    expect(['pending', 'processing', 'completed']).toContain(transcript.status);
    const finished = await waitForStatus(srv, key, transcript.id, ['completed', 'failed']);
    expect(finished.status).toBe('completed');
    expect(finished.words.length).toBeGreaterThan(0);

    // a second complete answers the same transcript and asset, and creates nothing new
    const again = (await (await complete(up.uploadId)).json()) as Json;
    expect(again.transcript.id).toBe(transcript.id);
    expect(again.asset.id).toBe(asset.id);
    const me = (await (await api()('/api/v1/me')).json()) as Json;
    expect(readFileSync(await assetPath(me.workspace.id, asset.id))).toEqual(bytes);
    expect(await hasParts(me.workspace.id, up.uploadId)).toBe(false);
  });

  it('completes concurrently called completes once', async () => {
    const bytes = randomBytes(PART * 2 + 10);
    const up = await beginFor(bytes);
    for (let i = 0; i < up.partCount; i++)
      expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
    const all = await Promise.all([complete(up.uploadId), complete(up.uploadId), complete(up.uploadId)]);
    const bodies = (await Promise.all(all.map((r) => r.json()))) as Json[];
    expect(new Set(bodies.map((b) => b.transcript.id)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.asset.id)).size).toBe(1);
  });

  it('names missing and wrong-sized parts at complete, and refuses bad parts', async () => {
    const bytes = randomBytes(PART * 3 + 100);
    const up = await beginFor(bytes, { sha256: sha256(bytes) });
    expect((await put(up.uploadId, 0, part(bytes, 0))).status).toBe(200);
    expect((await put(up.uploadId, 3, part(bytes, 3))).status).toBe(200);
    const missing = await complete(up.uploadId);
    expect(missing.status).toBe(400);
    const problem = (await missing.json()) as Json;
    expect(problem.error).toMatch(/missing parts: 1, 2/);
    expect(problem.missingParts).toEqual([1, 2]);

    // wrong sizes: short → 400, long → 413; neither is stored
    const short = await put(up.uploadId, 1, part(bytes, 1).subarray(1));
    expect(short.status).toBe(400);
    expect(((await short.json()) as Json).error).toMatch(/exactly 4096 bytes/);
    const long = await put(up.uploadId, 1, Buffer.concat([part(bytes, 1), Buffer.from('x')]));
    expect(long.status).toBe(413);
    const lastTooLong = await put(up.uploadId, 3, part(bytes, 2));
    expect(lastTooLong.status).toBe(413);

    // out-of-range and non-integer indexes
    for (const index of ['4', '-1', '1.5', 'abc', '99999999999'])
      expect((await put(up.uploadId, index, part(bytes, 0))).status, index).toBe(400);

    // a checksum mismatch discards the part (the earlier good one stays)
    const wrongHash = await put(up.uploadId, 0, part(bytes, 1), { 'x-part-sha256': sha256(part(bytes, 0)) });
    expect(wrongHash.status).toBe(400);
    expect(((await wrongHash.json()) as Json).error).toMatch(/SHA-256/);
    const digest = `sha-256=:${Buffer.from(sha256(part(bytes, 2)), 'hex').toString('base64')}:`;
    expect((await put(up.uploadId, 1, part(bytes, 1), { 'content-digest': digest })).status).toBe(400);
    expect((await put(up.uploadId, 2, part(bytes, 2), { 'content-digest': digest })).status).toBe(200);

    // a part with the right size but wrong bytes: the whole-file hash catches it
    expect((await put(up.uploadId, 1, part(bytes, 2))).status).toBe(200);
    const wrongWhole = await complete(up.uploadId);
    expect(wrongWhole.status).toBe(400);
    expect(((await wrongWhole.json()) as Json).error).toMatch(/sha256/);
    expect((await put(up.uploadId, 1, part(bytes, 1))).status).toBe(200);
    expect((await complete(up.uploadId)).status).toBe(200);
  });

  const stats = () => ({ ...srv.deps.chunkedUploads.stats });
  const uploadDir = async (uploadId: string) => {
    const me = (await (await api()('/api/v1/me')).json()) as Json;
    return join(srv.dataDir, 'chunked', me.workspace.id, uploadId);
  };

  // The in-order fast path: only where parts are written in place into one local file.
  it.skipIf(hostedTests)(
    'fast path: parts sent in order are written in place and hashed as they arrive; complete reads no part again',
    async () => {
      const bytes = randomBytes(PART * 4 + 123);
      const up = await beginFor(bytes, { sha256: sha256(bytes) });
      const dir = await uploadDir(up.uploadId);
      for (let i = 0; i < up.partCount; i++) {
        expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
        // the file already holds exactly the parts received so far, byte for byte
        expect(readFileSync(join(dir, 'parts.bin'))).toEqual(
          bytes.subarray(0, Math.min(bytes.length, (i + 1) * PART)),
        );
      }
      const before = stats();
      const done = await complete(up.uploadId);
      expect(done.status).toBe(200);
      const { asset } = (await done.json()) as Json;
      expect(stats()).toEqual({ ...before, fast: before.fast + 1 });
      expect(asset.sha256).toBe(sha256(bytes));
      const me = (await (await api()('/api/v1/me')).json()) as Json;
      expect(readFileSync(await assetPath(me.workspace.id, asset.id))).toEqual(bytes);
      expect(existsSync(dir)).toBe(false);
      // idempotent: the second complete answers the same asset and joins nothing
      const again = (await (await complete(up.uploadId)).json()) as Json;
      expect(again.asset.id).toBe(asset.id);
      expect(stats()).toEqual({ ...before, fast: before.fast + 1 });
    },
  );

  // The in-order fast path: only where parts are written in place into one local file.
  it.skipIf(hostedTests)(
    'a re-PUT of an already assembled part with other bytes drops the fast path: the whole hash is still right',
    async () => {
      const bytes = randomBytes(PART * 3 + 7);
      const up = await beginFor(bytes); // no declared sha256: the asset's hash is what the server computed
      for (let i = 0; i < up.partCount; i++)
        expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
      const changed = Buffer.from(bytes);
      randomBytes(PART).copy(changed, PART); // part 1 replaced by other bytes of the same size
      expect((await put(up.uploadId, 1, part(changed, 1))).status).toBe(200);
      const before = stats();
      const { asset } = (await (await complete(up.uploadId)).json()) as Json;
      expect(stats()).toEqual({ ...before, full: before.full + 1 });
      expect(asset.sha256).toBe(sha256(changed));
      const me = (await (await api()('/api/v1/me')).json()) as Json;
      expect(readFileSync(await assetPath(me.workspace.id, asset.id))).toEqual(changed);
    },
  );

  // The in-order fast path: only where parts are written in place into one local file.
  it.skipIf(hostedTests)(
    'a re-PUT of an assembled part with the same bytes keeps the fast path; a part sent ahead joins once the gap fills',
    async () => {
      const bytes = randomBytes(PART * 4);
      const up = await beginFor(bytes, { sha256: sha256(bytes) });
      for (const i of [0, 1, 0, 3, 2]) expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
      const before = stats();
      const { asset } = (await (await complete(up.uploadId)).json()) as Json;
      expect(stats()).toEqual({ ...before, fast: before.fast + 1 }); // 3 was read back into the hash after 2 came
      expect(asset.sha256).toBe(sha256(bytes));
      const me = (await (await api()('/api/v1/me')).json()) as Json;
      expect(readFileSync(await assetPath(me.workspace.id, asset.id))).toEqual(bytes);
    },
  );

  // The in-order fast path: only where parts are written in place into one local file.
  it.skipIf(hostedTests)(
    'a part sent ahead whose range no longer holds it stays out of the hash: complete reads it and refuses',
    async () => {
      const bytes = randomBytes(PART * 3);
      const up = await beginFor(bytes, { sha256: sha256(bytes) });
      for (const i of [0, 2]) expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
      // another writer on a shared volume changes part 2's range before the gap before it fills
      const file = await open(join(await uploadDir(up.uploadId), 'parts.bin'), 'r+');
      await file.write(randomBytes(16), 0, 16, 2 * PART);
      await file.close();
      expect((await put(up.uploadId, 1, part(bytes, 1))).status).toBe(200);
      const before = stats();
      const refused = await complete(up.uploadId);
      expect(stats()).toEqual({ ...before, resumed: before.resumed + 1 }); // hashed 0-1; 2 read and checked
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Json).missingParts).toEqual([2]);
      expect((await put(up.uploadId, 2, part(bytes, 2))).status).toBe(200);
      const done = await complete(up.uploadId);
      expect(done.status).toBe(200);
      expect(((await done.json()) as Json).asset.sha256).toBe(sha256(bytes));
    },
  );

  // The in-order fast path: only where parts are written in place into one local file.
  it.skipIf(hostedTests)(
    'a part that fails mid-assembly does not advance it; the resend continues the fast path',
    async () => {
      const bytes = randomBytes(PART * 3);
      const up = await beginFor(bytes, { sha256: sha256(bytes) });
      expect((await put(up.uploadId, 0, part(bytes, 0))).status).toBe(200);
      // wrong bytes for part 1 (checksum refused) and a short part 1: both were teed, neither may count
      expect(
        (await put(up.uploadId, 1, part(bytes, 2), { 'x-part-sha256': sha256(part(bytes, 1)) })).status,
      ).toBe(400);
      expect((await put(up.uploadId, 1, part(bytes, 1).subarray(10))).status).toBe(400);
      for (const i of [1, 2]) expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
      const before = stats();
      const done = await complete(up.uploadId);
      expect(done.status).toBe(200);
      expect(stats()).toEqual({ ...before, fast: before.fast + 1 });
      expect(((await done.json()) as Json).asset.sha256).toBe(sha256(bytes));
    },
  );

  it('never mixes concurrent re-sends of one part: the stored part is one whole body', async () => {
    const bytes = randomBytes(PART * 2);
    const up = await beginFor(bytes);
    for (let round = 0; round < 20; round++) {
      const bodies = Array.from({ length: 8 }, () => randomBytes(PART));
      const results = await Promise.all(bodies.map((b) => put(up.uploadId, 0, b)));
      expect(results.every((r) => r.status === 200)).toBe(true);
      const status = (await (await api()(`/api/v1/uploads/chunked/${up.uploadId}`)).json()) as Json;
      const me = (await (await api()('/api/v1/me')).json()) as Json;
      const stored = await storedPart(me.workspace.id, up.uploadId, 0);
      const hashes = bodies.map(sha256);
      expect(hashes).toContain(sha256(stored));
      expect(status.receivedParts[0].sha256).toBe(sha256(stored));
    }
    // whichever body won (teed into the assembly or not), the whole file is that body and part 1
    const me = (await (await api()('/api/v1/me')).json()) as Json;
    const stored = await storedPart(me.workspace.id, up.uploadId, 0);
    expect((await put(up.uploadId, 1, part(bytes, 1))).status).toBe(200);
    const { asset } = (await (await complete(up.uploadId)).json()) as Json;
    expect(asset.sha256).toBe(sha256(Buffer.concat([stored, part(bytes, 1)])));
  }, 180_000); // 20 rounds of 8 racing PUTs: each commit is an upload to the bucket on the hosted backend

  it('never marks a part cut off mid-body as received, and leaves no temp file', async () => {
    const bytes = randomBytes(PART * 2);
    const up = await beginFor(bytes);
    const port = Number(new URL(srv.url).port);
    for (let round = 0; round < 10; round++) {
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            `PUT /api/v1/uploads/chunked/${up.uploadId}/parts/1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
              `Authorization: Bearer ${key}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${PART}\r\n\r\n`,
          );
          socket.write(part(bytes, 1).subarray(0, 1000 + round * 300), () =>
            setTimeout(() => socket.destroy(), 30),
          );
        });
        socket.on('close', () => resolve());
        socket.on('error', () => undefined);
      });
    }
    await new Promise((r) => setTimeout(r, 200));
    const status = (await (await api()(`/api/v1/uploads/chunked/${up.uploadId}`)).json()) as Json;
    expect(status.missingParts).toEqual([0, 1]);
    const me = (await (await api()('/api/v1/me')).json()) as Json;
    expect(await storedParts(me.workspace.id, up.uploadId)).toEqual([]);
    // a cut-off receive cleans up once the server has seen the socket close, which may come a moment later
    const scratch = () => readdirSync(srv.deps.store.tmpDir).filter((f) => f.startsWith('part-'));
    for (const deadline = Date.now() + 5000; scratch().length > 0 && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 50));
    expect(scratch()).toEqual([]);
    // resuming sends the parts again and the result is byte-exact
    for (const i of status.missingParts) expect((await put(up.uploadId, i, part(bytes, i))).status).toBe(200);
    const { asset } = (await (await complete(up.uploadId)).json()) as Json;
    expect(asset.sha256).toBe(sha256(bytes));
  });

  it('survives a restart: received parts are kept and the upload resumes', async () => {
    const bytes = randomBytes(PART * 3);
    const first = await startTestServer({ whisperModel: fx.model });
    const firstKey = await first.createKey({ services: ['transcription'] });
    const begun = await first.as({ bearer: firstKey })('/api/v1/uploads/chunked', {
      method: 'POST',
      body: JSON.stringify({
        filename: 'r.wav',
        contentType: 'audio/wav',
        size: bytes.length,
        partSize: PART,
        sha256: sha256(bytes),
      }),
    });
    const up = (await begun.json()) as Json;
    for (const i of [0, 2]) {
      const res = await first.as({ bearer: firstKey })(`/api/v1/uploads/chunked/${up.uploadId}/parts/${i}`, {
        method: 'PUT',
        body: new Uint8Array(part(bytes, i)),
      });
      expect(res.status).toBe(200);
    }
    await first.server.close();
    const second = await startTestServer({ whisperModel: fx.model, dataDir: first.dataDir });
    try {
      const again = second.as({ bearer: firstKey });
      const status = (await (await again(`/api/v1/uploads/chunked/${up.uploadId}`)).json()) as Json;
      expect(status.missingParts).toEqual([1]);
      expect(
        (
          await again(`/api/v1/uploads/chunked/${up.uploadId}/parts/1`, {
            method: 'PUT',
            body: new Uint8Array(part(bytes, 1)),
          })
        ).status,
      ).toBe(200);
      const done = (await (
        await again(`/api/v1/uploads/chunked/${up.uploadId}/complete`, { method: 'POST' })
      ).json()) as Json;
      expect(done.asset.sha256).toBe(sha256(bytes));
    } finally {
      await second.close();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });

  it('aborts (then 410), expires (410, swept), and hides other workspaces’ uploads (404)', async () => {
    const bytes = randomBytes(PART);
    const aborted = await beginFor(bytes);
    expect((await api()(`/api/v1/uploads/chunked/${aborted.uploadId}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await put(aborted.uploadId, 0, bytes)).status).toBe(410);
    expect((await complete(aborted.uploadId)).status).toBe(410);

    const expiring = await beginFor(bytes, { expiresIn: 1 });
    expect((await put(expiring.uploadId, 0, bytes)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1300));
    expect((await put(expiring.uploadId, 0, bytes)).status).toBe(410);
    expect((await complete(expiring.uploadId)).status).toBe(410);
    expect((await api()(`/api/v1/uploads/chunked/${expiring.uploadId}`)).status).toBe(410);
    const me = (await (await api()('/api/v1/me')).json()) as Json;
    const deadline = Date.now() + 5000;
    while ((await hasParts(me.workspace.id, expiring.uploadId)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await hasParts(me.workspace.id, expiring.uploadId)).toBe(false);

    const other = await createWorkspace(srv, srv.owner, 'Other');
    const otherKey = await srv.createKey({ services: ['transcription'], workspace: other.id });
    const mine = await beginFor(bytes);
    expect((await put(mine.uploadId, 0, bytes, {}, otherKey)).status).toBe(404);
    expect((await complete(mine.uploadId, otherKey)).status).toBe(404);
    expect((await api(otherKey)(`/api/v1/uploads/chunked/${mine.uploadId}`)).status).toBe(404);
    expect(
      (await api(otherKey)(`/api/v1/uploads/chunked/${mine.uploadId}`, { method: 'DELETE' })).status,
    ).toBe(404);
    expect((await complete('upl_doesnotexist')).status).toBe(404);
  });

  it('is for keys with transcription only: a session gets 403, a key without it 403 naming transcription', async () => {
    const body = JSON.stringify({ filename: 'a.wav', contentType: 'audio/wav', size: 10 });
    const session = await srv.as(srv.owner)('/api/v1/uploads/chunked', { method: 'POST', body });
    expect(session.status).toBe(403);
    const assetsOnly = await srv.createKey({ services: ['assets'] });
    const refused = await api(assetsOnly)('/api/v1/uploads/chunked', { method: 'POST', body });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ service: 'transcription', enabledServices: ['assets'] });
    expect((await srv.as(null)('/api/v1/uploads/chunked', { method: 'POST', body })).status).toBe(401);
  });

  it('validates begin', async () => {
    for (const bad of [
      {},
      { filename: 'a.wav', contentType: 'audio/wav', size: 0 },
      { filename: 'a.wav', contentType: 'audio/wav', size: 10, sha256: 'xyz' },
      { filename: 'a.wav', contentType: 'audio/wav', size: 10, partSize: 10 },
      { filename: 'a.wav', contentType: 'audio/wav', size: 10, unknown: true },
    ])
      expect((await begin(bad)).status, JSON.stringify(bad)).toBe(400);
    expect((await begin({ filename: 'a.wav', contentType: 'audio/wav', size: 2 ** 40 })).status).toBe(413);
    const up = await begin({ filename: 'a.wav', contentType: 'audio/wav', size: (8 << 20) * 2 + 1 });
    expect(up.body).toMatchObject({ partSize: 8 << 20, partCount: 3 });
    const tmp = readdirSync(srv.deps.store.tmpDir).filter((f) => f.startsWith('chunked-'));
    expect(tmp).toEqual([]);
  });
});
