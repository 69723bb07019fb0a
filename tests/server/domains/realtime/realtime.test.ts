import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { realtimeSecrets } from '../../../../server/domains/realtime/collections.js';
import { createRealtimeSecrets } from '../../../../server/domains/realtime/secrets.js';
import { openTestStore } from '../../../helpers/hosted/backend.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
  waitForStatus,
} from '../../../helpers/transcription.js';

/** The PCM samples of a 16-bit WAV (its `data` chunk). */
function pcmOf(wav: Buffer): Buffer {
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'data') return wav.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

type Event = Json & { type: string };

function connect(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    events.push(JSON.parse(data.toString()) as Event);
    for (const w of waiters.splice(0)) w();
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })),
    );
    ws.once('error', reject);
  });
  async function next(type: string, timeoutMs = 30_000): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((e) => e.type === type);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no ${type} event; got ${events.map((e) => e.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, events, opened, next, closed };
}

describe.skipIf(!engineBuilt)('realtime sessions', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer({ whisperModel: fx.model });
    key = await srv.createKey({ services: ['realtime', 'transcription'] });
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  const mint = async (bearer = key, body: Json = {}) => {
    const res = await srv.as({ bearer })('/api/v1/realtime/sessions', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('mints a short-lived single-use secret bound to the workspace', async () => {
    const { status, body } = await mint();
    expect(status).toBe(201);
    expect(body.clientSecret.value).toMatch(/^frt_[0-9A-Za-z]{32}$/);
    expect(body.websocketUrl).toBe(`${srv.url.replace('http', 'ws')}/api/v1/realtime/ws`);
    expect(body.audio).toEqual({ format: 'pcm16', sampleRate: 16000, channels: 1 });
    const ttl = Date.parse(body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect((await mint(key, { expiresIn: 601 })).status).toBe(400);
    const longer = await mint(key, { expiresIn: 600 });
    expect(Date.parse(longer.body.expiresAt) - Date.now()).toBeGreaterThan(590_000);

    const transcriptionOnly = await mint(await srv.createKey({ services: ['transcription'] }));
    expect(transcriptionOnly.status).toBe(403);
    expect(transcriptionOnly.body.service).toBe('realtime');
    const bySession = await srv.as(srv.owner)('/api/v1/realtime/sessions', { method: 'POST', body: '{}' });
    expect(bySession.status).toBe(201);
  });

  it('refuses a second connect, an unknown secret and no credential', async () => {
    const { body } = await mint();
    const url = `${body.websocketUrl}?client_secret=${body.clientSecret.value}`;
    const first = connect(url);
    await first.opened;
    await first.next('session.started');
    const second = connect(url);
    await expect(second.opened).rejects.toMatchObject({ status: 410 });
    first.ws.close();
    await expect(
      connect(`${body.websocketUrl}?client_secret=frt_${'x'.repeat(32)}`).opened,
    ).rejects.toMatchObject({ status: 401 });
    await expect(connect(body.websocketUrl).opened).rejects.toMatchObject({ status: 401 });
  });

  it('streams speech in real time: partials while speaking, a final on commit, and keep stores the audio and a completed transcript', async () => {
    const { body } = await mint();
    const session = connect(`${body.websocketUrl}?client_secret=${body.clientSecret.value}`);
    await session.opened;
    const started = await session.next('session.started');
    expect(started.audio).toEqual({ format: 'pcm16', sampleRate: 16000, channels: 1 });

    const pcm = pcmOf(fx.speechBytes);
    const frame = 3200; // 100 ms
    const t0 = performance.now();
    for (let at = 0, n = 0; at < pcm.length; at += frame, n++) {
      session.ws.send(pcm.subarray(at, at + frame));
      const due = t0 + (n + 1) * 100;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
    const partial = await session.next('transcript.partial');
    expect(typeof partial.text).toBe('string');
    expect(partial.start).toBeGreaterThanOrEqual(0);
    expect(partial.end).toBeGreaterThan(partial.start);
    expect(partial.end).toBeLessThanOrEqual(pcm.length / 32000);

    session.ws.send(JSON.stringify({ type: 'commit' }));
    const final = await session.next('transcript.final');
    expect(final.segments.length).toBeGreaterThan(0);
    for (const s of final.segments) {
      expect(s.end).toBeGreaterThanOrEqual(s.start);
      expect(s.end).toBeLessThanOrEqual(pcm.length / 32000 + 0.01);
    }

    // a second stretch after the commit is timed from the session start
    session.ws.send(pcm);
    session.ws.send(JSON.stringify({ type: 'close', keep: true }));
    const closed = await session.next('session.closed');
    expect(await session.closed).toBe(1000);
    const finals = session.events.filter((e) => e.type === 'transcript.final');
    expect(finals).toHaveLength(2);
    expect(finals[1].start).toBeCloseTo(pcm.length / 32000, 2);
    expect(closed.transcriptId).toMatch(/^trn_/);
    expect(closed.assetId).toMatch(/^ast_/);

    const transcript = await waitForStatus(srv, key, closed.transcriptId, ['completed']);
    expect(transcript.audioAssetId).toBe(closed.assetId);
    expect(transcript.duration).toBeCloseTo((2 * pcm.length) / 32000, 2);
    expect(transcript.segments.length).toBeGreaterThan(0);
    const ends = transcript.segments.map((s: Json) => s.end);
    expect(Math.max(...ends)).toBeGreaterThan(pcm.length / 32000);
    const asset = await srv.deps.assets.get((await me()).workspace.id, closed.assetId);
    expect(asset).toMatchObject({ type: 'audio', size: 44 + 2 * pcm.length });
  });

  it('a socket closed without a close message keeps nothing; a key with realtime may connect directly', async () => {
    const before = ((await (await srv.as({ bearer: key })('/api/v1/transcripts?limit=200')).json()) as Json)
      .data.length;
    const direct = connect(`${srv.url.replace('http', 'ws')}/api/v1/realtime/ws`, {
      authorization: `Bearer ${key}`,
    });
    await direct.opened;
    await direct.next('session.started');
    direct.ws.send(pcmOf(fx.speechBytes).subarray(0, 32000));
    direct.ws.send('not json');
    expect((await direct.next('error')).error).toMatch(/JSON/);
    direct.ws.close();
    await direct.closed;
    await new Promise((r) => setTimeout(r, 200));
    const after = ((await (await srv.as({ bearer: key })('/api/v1/transcripts?limit=200')).json()) as Json)
      .data.length;
    expect(after).toBe(before);
  });

  async function me(): Promise<Json> {
    return (await (await srv.as({ bearer: key })('/api/v1/me')).json()) as Json;
  }
});

describe('realtime client secrets', () => {
  it('expire, are single use, stored as hashes, and unknown ones do not resolve', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-secrets-'));
    const { store, close } = await openTestStore(dataDir);
    try {
      let now = Date.parse('2026-01-01T00:00:00Z');
      const secrets = createRealtimeSecrets(store, () => now);
      const a = await secrets.mint('ws1', 60);
      expect(await secrets.resolve(a.secret)).toMatchObject({ purpose: 'realtime', workspaceId: 'ws1' });
      await expect(secrets.resolve(a.secret)).rejects.toThrow(/already used/);
      const b = await secrets.mint('ws1', 60);
      expect(JSON.stringify(await store.instance(realtimeSecrets).all())).not.toContain(b.secret);
      now += 60_001;
      await expect(secrets.resolve(b.secret)).rejects.toThrow(/expired/);
      expect(await secrets.resolve(`frt_${'a'.repeat(32)}`)).toBeUndefined();
      expect(await secrets.resolve('frt_short')).toBeUndefined();
      now += 60_001;
      expect(await secrets.sweep()).toBe(2);
    } finally {
      await close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('of 20 concurrent connects with one secret exactly one is let in', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-secrets-'));
    const { store, close } = await openTestStore(dataDir);
    try {
      const secrets = createRealtimeSecrets(store);
      const { secret } = await secrets.mint('ws1', 60);
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => secrets.resolve(secret)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    } finally {
      await close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
