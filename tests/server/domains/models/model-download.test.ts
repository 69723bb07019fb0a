// Model downloads end to end through the routes, from a local HTTP server serving a generated model slowly:
// progress while it runs, a resume after the connection drops mid-file, a checksum mismatch refused with its
// partial file removed, cancel, and the downloaded model then transcribing. Owner only.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateModel } from '../../../helpers/generate-model.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
} from '../../../helpers/transcription.js';

const CHUNK = 256 * 1024;

let fx: Fixtures;
let srv: TestServer;
let model: Buffer;
let origin: string;
let files: Server;
/** What the local model host saw, and how it behaves for the next request. */
let requests: Array<{ url: string; range?: string }>;
let dropFirstAt: number | undefined;
let delayMs: number;
let aborted: number;

beforeAll(async () => {
  fx = makeFixtures();
  srv = await startTestServer();
  const path = join(fx.dir, 'served.bin');
  generateModel(path, { preset: 'micro', seed: 11 });
  model = readFileSync(path);
  files = createServer((req, res) => {
    requests.push({ url: req.url ?? '', range: req.headers.range });
    if (req.url !== '/models/served.bin') return res.writeHead(404).end('not found');
    const start = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
    res.writeHead(start ? 206 : 200, {
      'content-length': model.length - start,
      ...(start && { 'content-range': `bytes ${start}-${model.length - 1}/${model.length}` }),
    });
    const dropAt = dropFirstAt;
    dropFirstAt = undefined;
    let at = start;
    res.on('close', () => {
      if (at < model.length) aborted++;
    });
    // paced, so progress can be watched, and cut at `dropAt` as a failing network would
    const pump = () => {
      if (res.destroyed) return;
      if (dropAt !== undefined && at >= dropAt) return void res.destroy();
      const end = Math.min(model.length, at + CHUNK);
      res.write(model.subarray(at, end));
      at = end;
      if (at >= model.length) return void res.end();
      setTimeout(pump, delayMs);
    };
    pump();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  files?.close();
  await srv?.close();
  fx?.cleanup();
});
beforeEach(() => {
  requests = [];
  dropFirstAt = undefined;
  delayMs = 15;
  aborted = 0;
});

const owner = () => srv.as(srv.owner);
const sha256 = () => createHash('sha256').update(model).digest('hex');
const modelsDir = () => join(srv.dataDir, 'models');

function start(name: string, body?: Json) {
  return owner()(`/api/v1/models/${name}/download`, {
    method: 'POST',
    ...(body && { body: JSON.stringify(body) }),
  });
}

/** Polls the download route until it leaves `downloading`; returns every state seen. */
async function follow(name: string, until = (s: Json) => s.status !== 'downloading') {
  const seen: Json[] = [];
  for (let i = 0; i < 600; i++) {
    const res = await owner()(`/api/v1/models/downloads/${name}`);
    expect(res.status).toBe(200);
    const state = (await res.json()) as Json;
    seen.push(state);
    if (until(state)) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`download of ${name} did not settle: ${JSON.stringify(seen.at(-1))}`);
}

describe.skipIf(!engineBuilt)('model download through the routes', () => {
  it('shows progress while it runs, installs the verified file, and the model then transcribes', async () => {
    const res = await start('served', { url: `${origin}/models/served.bin`, sha256: sha256() });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      name: 'served',
      file: 'ggml-served.bin',
      status: 'downloading',
    });
    const seen = await follow('served');
    expect(seen.at(-1)).toMatchObject({ status: 'completed', percent: 100, receivedBytes: model.length });
    const midway = seen.filter((s) => s.status === 'downloading' && s.percent > 0 && s.percent < 100);
    expect(midway.length).toBeGreaterThan(2);
    const received = seen.map((s) => s.receivedBytes as number);
    expect(received).toEqual([...received].sort((a, b) => a - b));

    const overview = (await (await owner()('/api/v1/models')).json()) as Json;
    expect(overview.installed).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: 'ggml-served.bin', usable: true })]),
    );
    expect(overview.downloads).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'served', status: 'completed' })]),
    );
    expect(readFileSync(join(modelsDir(), 'ggml-served.bin')).equals(model)).toBe(true);
    expect(readdirSync(modelsDir()).filter((f) => f.endsWith('.part'))).toEqual([]);

    const active = await owner()('/api/v1/models/active', {
      method: 'PUT',
      body: JSON.stringify({ name: 'ggml-served.bin' }),
    });
    expect(active.status).toBe(200);
    const key = await srv.createKey({ services: ['transcription'] });
    const transcribed = await srv.as({ bearer: key })('/api/v1/transcribe', {
      method: 'POST',
      body: audioForm(fx.speechBytes),
    });
    expect(transcribed.status).toBe(200);
    expect(((await transcribed.json()) as Json).model).toBe('ggml-served.bin');
  });

  it('resumes with a Range request after the connection drops mid-file', async () => {
    dropFirstAt = 3 * CHUNK;
    delayMs = 1;
    expect((await start('resumed', { url: `${origin}/models/served.bin`, sha256: sha256() })).status).toBe(
      202,
    );
    const seen = await follow('resumed');
    expect(seen.at(-1)).toMatchObject({ status: 'completed', percent: 100 });
    // the second request asks for the rest, from what had arrived before the drop
    expect(requests.map((r) => r.range)).toEqual([undefined, expect.stringMatching(/^bytes=\d+-$/)]);
    const from = Number(/\d+/.exec(requests[1].range!)![0]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThanOrEqual(3 * CHUNK);
    expect(readFileSync(join(modelsDir(), 'ggml-resumed.bin')).equals(model)).toBe(true);
  });

  it('refuses a file whose checksum does not match, and removes what it fetched', async () => {
    delayMs = 1;
    // a mirror of a catalog model is checked against the catalog: this file is not tiny.en
    expect((await start('tiny.en', { url: `${origin}/models/served.bin` })).status).toBe(202);
    const mirror = (await follow('tiny.en')).at(-1)!;
    expect(mirror).toMatchObject({ status: 'failed', error: expect.stringMatching(/expected 77704715/) });
    // a model outside the catalog is checked against the sha256 it was given
    const wrong = '0'.repeat(64);
    expect((await start('mismatch', { url: `${origin}/models/served.bin`, sha256: wrong })).status).toBe(202);
    const custom = (await follow('mismatch')).at(-1)!;
    expect(custom).toMatchObject({ status: 'failed', error: expect.stringMatching(/sha256 check/) });
    const left = readdirSync(modelsDir());
    expect(left.filter((f) => /tiny\.en|mismatch/.test(f))).toEqual([]);
    const overview = (await (await owner()('/api/v1/models')).json()) as Json;
    expect(overview.installed.map((m: Json) => m.file)).not.toContain('ggml-mismatch.bin');
  });

  it('cancels a running download: status cancelled, the connection closed, no partial file left', async () => {
    delayMs = 200;
    expect((await start('cancelled', { url: `${origin}/models/served.bin` })).status).toBe(202);
    await follow('cancelled', (s) => s.receivedBytes > 0);
    // bytes are counted as they arrive; the .part file opens asynchronously beside that
    await expect.poll(() => existsSync(join(modelsDir(), 'ggml-cancelled.bin.part'))).toBe(true);
    const res = await owner()('/api/v1/models/downloads/cancelled', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'cancelled', status: 'cancelled' });
    expect(((await (await owner()('/api/v1/models/downloads/cancelled')).json()) as Json).status).toBe(
      'cancelled',
    );
    expect(readdirSync(modelsDir()).filter((f) => f.includes('cancelled'))).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(aborted).toBe(1);
    const again = await owner()('/api/v1/models/downloads/cancelled', { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect((await owner()('/api/v1/models/downloads/never', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad sources: 400 for a non-http URL or a bad sha256, 404 for an unknown name without a URL', async () => {
    for (const body of [
      { url: 'file:///etc/passwd' },
      { url: 'ftp://127.0.0.1/x.bin' },
      { url: 'not a url' },
      { url: `${origin}/models/served.bin`, sha256: 'abc' },
      { url: `${origin}/models/served.bin`, extra: 1 },
    ]) {
      const res = await start('custom', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as Json).error).toEqual(expect.any(String));
    }
    expect((await start('bad name!', { url: `${origin}/models/served.bin` })).status).toBe(400);
    expect((await start('unknown')).status).toBe(404);
    expect((await start('tiny.en', { url: `${origin}/x`, sha256: 'a'.repeat(64) })).status).toBe(400);
    expect(requests).toEqual([]);
  });

  it('is for the owner of the instance only: another user and an API key get 403', async () => {
    const user = await srv.signInApproved('someone@example.com');
    const key = await srv.createKey({ services: ['transcription'] });
    const body = JSON.stringify({ url: `${origin}/models/served.bin` });
    for (const credential of [user, { bearer: key }]) {
      const as = srv.as(credential);
      expect((await as('/api/v1/models/x/download', { method: 'POST', body })).status).toBe(403);
      expect((await as('/api/v1/models/downloads/x', { method: 'DELETE' })).status).toBe(403);
      const imported = await as('/api/v1/models/import', {
        method: 'POST',
        body: JSON.stringify({ path: fx.model }),
      });
      expect(imported.status).toBe(403);
    }
    expect(requests).toEqual([]);
  });
});
