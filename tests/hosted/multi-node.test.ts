// Three Folio processes sharing one PostgreSQL database and one bucket (OpenStack Swift's S3 API), behind nginx
// with the documented configuration. Nodes are killed with SIGKILL mid-work, as a power cut would.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Cluster, startCluster } from '../../scripts/hosted/cluster.js';
import { tableOf } from '../../server/store/postgres/database.js';
import { openS3Blobs } from '../../server/store/s3/blobs.js';
import type { S3Settings } from '../../server/store/s3/client.js';
import { createTestDatabase, testS3Settings } from '../helpers/hosted/services.js';
import { padTo } from '../helpers/speech.js';
import { engineBuilt, type Fixtures, type Json, makeFixtures } from '../helpers/transcription.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(!engineBuilt)('three nodes behind nginx on PostgreSQL and S3', () => {
  let fx: Fixtures;
  let cluster: Cluster;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: S3Settings;
  let db: pg.Client;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    fx = makeFixtures();
    database = await createTestDatabase();
    s3 = await testS3Settings();
    cluster = await startCluster({
      nodes: 3,
      databaseUrl: database.url,
      s3,
      env: {
        FOLIO_WHISPER_MODEL: fx.model,
        FOLIO_JOB_LEASE_MS: '3000',
        FOLIO_QUEUE_POLL_MS: '250',
        FOLIO_SWEEP_MS: '1000',
        FOLIO_ORPHAN_GRACE_MS: '3000',
      },
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    // The owner link a node prints points at the public address: it signs in through nginx.
    const signedIn = await fetch(cluster.nodes[0]!.ownerLink, { redirect: 'manual' });
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const created = await fetch(`${cluster.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { cookie, origin: cluster.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cluster', services: ['assets', 'transcription', 'realtime'] }),
    });
    expect(created.status).toBe(201);
    ({ secret: key, workspaceId } = (await created.json()) as { secret: string; workspaceId: string });
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
    await db?.end();
    await database?.drop();
    fx?.cleanup();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });

  /** Queues a transcript without waiting for it (a one-part chunked upload, each step through nginx). */
  async function queueTranscript(audio: Buffer): Promise<string> {
    const begun = await fetch(`${cluster.url}/api/v1/uploads/chunked`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({
        filename: 'long.wav',
        contentType: 'audio/wav',
        size: audio.length,
        partSize: 64 << 20,
        // speech padded with silence to make a long job, which VAD would skip; no fallback, as in the other tests
        vad: false,
        temperatureIncrement: 0,
      }),
    });
    const { uploadId } = (await begun.json()) as Json;
    const put = await fetch(`${cluster.url}/api/v1/uploads/chunked/${uploadId}/parts/0`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: new Uint8Array(audio),
    });
    expect(put.status).toBe(200);
    const done = await fetch(`${cluster.url}/api/v1/uploads/chunked/${uploadId}/complete`, {
      method: 'POST',
      headers: auth(),
    });
    expect(done.status).toBe(200);
    return ((await done.json()) as Json).transcript.id;
  }

  it('started all three at once on one database, each naming its backend and node', async () => {
    for (const node of cluster.nodes) {
      expect(node.lines).toContain(`Storage: postgres+s3, node ${node.id}`);
      expect(await (await fetch(`${node.url}/ready`)).json()).toEqual({
        ok: true,
        backend: 'postgres+s3',
        node: node.id,
      });
    }
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++)
      seen.add(((await (await fetch(`${cluster.url}/health`)).json()) as Json).node);
    expect(seen.size).toBe(3); // nginx spreads requests over every node
  });

  it('a grant used concurrently through two nodes succeeds exactly once', async () => {
    for (let round = 0; round < 10; round++) {
      const minted = await fetch(`${cluster.url}/api/v1/uploads/grant`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: '{}',
      });
      const { grant } = (await minted.json()) as { grant: string };
      const upload = (node: number) => {
        const form = new FormData();
        form.append('file', new Blob([`round ${round} via ${node}`], { type: 'text/plain' }), 'g.txt');
        return fetch(`${cluster.nodes[node]!.url}/api/v1/uploads/client`, {
          method: 'POST',
          headers: { authorization: `Bearer ${grant}` },
          body: form,
        });
      };
      const statuses = (await Promise.all([upload(0), upload(1)])).map((r) => r.status).sort();
      expect(statuses).toEqual([201, 410]);
    }
  });

  it('a realtime secret minted on one node connects once, on another node and through nginx', async () => {
    const open = (url: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url);
        ws.once('open', () => {
          resolve(101);
          ws.close();
        });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(0));
      });
    const mint = async (node: number) => {
      const res = await fetch(`${cluster.nodes[node]!.url}/api/v1/realtime/sessions`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: '{}',
      });
      return (await res.json()) as { clientSecret: { value: string }; websocketUrl: string };
    };
    const minted = await mint(0);
    // the URL a client is given points at the public address (nginx), whichever node minted it
    expect(minted.websocketUrl).toBe(`${cluster.url.replace(/^http/, 'ws')}/api/v1/realtime/ws`);
    const direct = `ws://127.0.0.1:${cluster.nodes[1]!.port}/api/v1/realtime/ws?client_secret=${minted.clientSecret.value}`;
    expect(await open(direct)).toBe(101);
    expect(await open(`${minted.websocketUrl}?client_secret=${minted.clientSecret.value}`)).toBe(410);
    const again = await mint(1);
    expect(await open(`${again.websocketUrl}?client_secret=${again.clientSecret.value}`)).toBe(101);
  });

  it('keeps every acknowledged one of 200 concurrent uploads when a node is killed mid-way, and sweeps what the dead node left', async () => {
    const victim = cluster.nodes[2]!;
    const bodies = Array.from({ length: 200 }, () => randomBytes(96 << 10));
    let answered = 0;
    const results = await Promise.all(
      bodies.map(async (body, i) => {
        const form = new FormData();
        form.append(
          'file',
          new Blob([new Uint8Array(body)], { type: 'application/octet-stream' }),
          `u${i}.bin`,
        );
        try {
          const res = await fetch(`${cluster.url}/api/v1/uploads`, {
            method: 'POST',
            headers: auth(),
            body: form,
          });
          const json = (await res.json().catch(() => ({}))) as Json;
          return {
            status: res.status,
            id: json.id as string | undefined,
            key: json.key as string | undefined,
            i,
          };
        } catch {
          return { status: 0, i };
        } finally {
          if (++answered === 40) await victim.kill();
        }
      }),
    );
    expect(victim.running()).toBe(false);
    const acknowledged = results.filter((r) => r.status === 201);
    expect(acknowledged.length).toBeGreaterThan(100);
    for (const r of results) expect([201, 502, 503, 0]).toContain(r.status);

    // every acknowledged upload is there, byte for byte, through any node
    for (const r of acknowledged) {
      const bytes = Buffer.from(await (await fetch(`${cluster.url}/f/${r.key}`)).arrayBuffer());
      expect(sha256(bytes)).toBe(sha256(bodies[r.i]!));
    }

    // no record without its bytes, and (after the grace and a sweep) no bytes without a record
    const listed: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = (await (
        await fetch(`${cluster.url}/api/v1/assets?limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
          headers: auth(),
        })
      ).json()) as Json;
      listed.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    for (const asset of listed)
      expect((await fetch(`${cluster.url}/f/${asset.key}`, { method: 'HEAD' })).status).toBe(200);
    const blobs = await openS3Blobs({ ...s3, tmpDir: fx.dir, createBucket: false });
    const ids = new Set(listed.map((a) => a.id as string));
    const orphans = async () => {
      const keys: string[] = [];
      for await (const blob of blobs.list(`workspaces/${workspaceId}/files`)) keys.push(blob.key);
      return keys.filter((k) => !ids.has(k.slice(k.lastIndexOf('/') + 1)));
    };
    const deadline = Date.now() + 20_000;
    while ((await orphans()).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    expect(await orphans()).toEqual([]);
    await cluster.restart(2);
  }, 180_000);

  it('a transcription job is taken by exactly one node and finished by another when that node is killed', async () => {
    const audio = readFileSync(padTo(fx.speech, join(fx.dir, 'long.wav'), 60));
    const id = await queueTranscript(audio);
    const row = async () =>
      (
        await db.query(`SELECT doc FROM "${tableOf('transcripts')}" WHERE workspace_id = $1 AND id = $2`, [
          workspaceId,
          id,
        ])
      ).rows[0]?.doc as Json;

    let first: string | undefined;
    const holders = new Set<string>();
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const t = await row();
      if (t.status === 'processing' && t.node) {
        holders.add(t.node);
        first ??= t.node;
        if (t.progress > 0) break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(first).toBeDefined();
    expect(holders).toEqual(new Set([first])); // while it runs, one node holds it
    await cluster.nodes.find((n) => n.id === first)!.kill();

    let second: string | undefined;
    let done: Json | undefined;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline && !done; ) {
      const t = await row();
      if (t.status === 'processing' && t.node && t.node !== first) second ??= t.node;
      if (t.status === 'completed' || t.status === 'failed') done = t;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(done?.status).toBe('completed');
    const seen = (await (
      await fetch(`${cluster.url}/api/v1/transcripts/${id}`, { headers: auth() })
    ).json()) as Json;
    expect(seen.status).toBe('completed');
    expect(seen.words.length).toBeGreaterThan(0);
    const survivors = cluster.nodes.filter((n) => n.running()).map((n) => n.lines.join('\n'));
    expect(survivors.join('\n')).toContain(`was held by ${first}, which stopped renewing it; re-queued`);
  }, 240_000);
});
