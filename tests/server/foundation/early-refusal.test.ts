// Answers sent before the request body was read (401, 403, 413, 415) reach the clients agents use, fetch
// (undici) and the openai client, as their status and `{ error }`, while the client is still sending; and a
// client that keeps sending past the drain bound is cut off. The server runs in its own process: sharing one
// event loop with the client hides the failure.
import { once } from 'node:events';
import { connect } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ChildTestServer, startChildTestServer } from '../../helpers/child-test-server.js';

const MiB = 1 << 20;
const DRAIN_BYTES = 16 * MiB;
const DRAIN_MS = 3_000;
const BIG = new Uint8Array(8 * MiB);

let srv: ChildTestServer;
let fullKey: string;
let transcriptionOnly: string;
let assetsOnly: string;
const BAD_KEY = `fk_${'A'.repeat(40)}`;

beforeAll(async () => {
  srv = await startChildTestServer({
    limits: {
      uploadBytes: 2 * MiB,
      transcribeBytes: 4 * MiB,
      jsonBytes: MiB,
      rateLimitPerMinute: 100_000,
      rateLimitBurst: 10_000,
      drainBytes: DRAIN_BYTES,
      drainMs: DRAIN_MS,
    },
  });
  fullKey = await srv.createKey(['assets', 'transcription']);
  transcriptionOnly = await srv.createKey(['transcription']);
  assetsOnly = await srv.createKey(['assets']);
});
afterAll(() => srv?.close());

const fileForm = (bytes: Uint8Array<ArrayBuffer>, type = 'audio/wav') => {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), 'big.wav');
  return form;
};

/** A body streamed in 64 KiB chunks, as an uploader reading a file sends it. */
const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 64 * 1024)
        controller.enqueue(bytes.subarray(at, at + 64 * 1024));
      controller.close();
    },
  });

type FetchCase = {
  label: string;
  path: string;
  method?: string;
  headers: () => Record<string, string>;
  body: () => BodyInit;
  status: number;
  error?: RegExp;
  extra?: Record<string, unknown>;
};

const session = () => ({ cookie: srv.owner.cookie, origin: srv.url });

const cases: FetchCase[] = [
  {
    label: '413 on /transcribe for a 4.5 MiB file',
    path: '/api/v1/transcribe',
    headers: () => ({ authorization: `Bearer ${fullKey}` }),
    body: () => fileForm(new Uint8Array(4.5 * MiB)),
    status: 413,
    error: /larger than/,
  },
  {
    label: '413 on /uploads past the upload limit',
    path: '/api/v1/uploads',
    headers: () => ({ authorization: `Bearer ${fullKey}` }),
    body: () => fileForm(BIG),
    status: 413,
    error: /larger than/,
  },
  {
    label: '401 with a bad key on a big upload',
    path: '/api/v1/uploads',
    headers: () => ({ authorization: `Bearer ${BAD_KEY}` }),
    body: () => fileForm(BIG),
    status: 401,
    error: /Invalid or revoked API key/,
  },
  {
    label: '403 for a key without assets on a big upload',
    path: '/api/v1/uploads',
    headers: () => ({ authorization: `Bearer ${transcriptionOnly}` }),
    body: () => fileForm(BIG),
    status: 403,
    extra: { service: 'assets' },
  },
  {
    label: '401 with a bad grant on a big client upload',
    path: '/api/v1/uploads/client',
    headers: () => ({ authorization: `Bearer fg_${'A'.repeat(40)}` }),
    body: () => fileForm(BIG),
    status: 401,
  },
  {
    label: '415 for a big upload that is not multipart',
    path: '/api/v1/uploads',
    headers: () => ({ authorization: `Bearer ${fullKey}`, 'content-type': 'application/json' }),
    body: () => streamOf(BIG),
    status: 415,
  },
  {
    label: '415 for a big text/plain body on a JSON route',
    path: '/api/v1/workspaces',
    headers: () => ({ ...session(), 'content-type': 'text/plain' }),
    body: () => streamOf(BIG),
    status: 415,
  },
  {
    label: '413 for a JSON body over 1 MiB',
    path: '/api/v1/workspaces',
    headers: () => ({ ...session(), 'content-type': 'application/json' }),
    body: () => streamOf(BIG),
    status: 413,
    error: /too large/,
  },
  {
    label: '413 for a JSON body over 1 MiB sent without a length',
    path: '/api/v1/api-keys',
    headers: () => ({ ...session(), 'content-type': 'application/json' }),
    body: () => streamOf(new TextEncoder().encode(`{"name":"${'x'.repeat(8 * MiB)}"}`)),
    status: 413,
  },
];

async function health() {
  return (await fetch(`${srv.url}/health`)).status;
}

describe('early refusal reaches fetch', () => {
  for (const c of cases) {
    it(`${c.label}: fetch reads the status and { error }`, async () => {
      for (let round = 0; round < 3; round++) {
        const body = c.body();
        const res = await fetch(`${srv.url}${c.path}`, {
          method: c.method ?? 'POST',
          headers: c.headers(),
          body,
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        } as RequestInit);
        expect(res.status).toBe(c.status);
        const json = (await res.json()) as { error: string };
        expect(typeof json.error).toBe('string');
        if (c.error) expect(json.error).toMatch(c.error);
        if (c.extra) expect(json).toMatchObject(c.extra);
      }
      expect(await health()).toBe(200);
    });
  }

  it('a chunked-upload part refused for its content type or size reaches fetch too', async () => {
    const begin = await fetch(`${srv.url}/api/v1/uploads/chunked`, {
      method: 'POST',
      headers: { authorization: `Bearer ${transcriptionOnly}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'a.wav', contentType: 'audio/wav', size: 2 * MiB, partSize: MiB }),
    });
    expect(begin.status).toBe(201);
    const { uploadId } = (await begin.json()) as { uploadId: string };
    const part = `${srv.url}/api/v1/uploads/chunked/${uploadId}/parts/0`;
    const auth = { authorization: `Bearer ${transcriptionOnly}` };
    const wrongType = await fetch(part, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'text/html' },
      body: streamOf(BIG),
      duplex: 'half',
    } as RequestInit);
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toHaveProperty('error');
    const tooBig = await fetch(part, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: BIG,
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toHaveProperty('error');
    const tooBigStreamed = await fetch(part, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: streamOf(BIG),
      duplex: 'half',
    } as RequestInit);
    expect(tooBigStreamed.status).toBe(413);
    expect(await tooBigStreamed.json()).toHaveProperty('error');
    expect(await health()).toBe(200);
  });
});

describe('early refusal reaches the openai client', () => {
  async function refusal(apiKey: string, bytes: Uint8Array) {
    const client = new OpenAI({ apiKey, baseURL: `${srv.url}/v1`, maxRetries: 0 });
    const file = await toFile(Buffer.from(bytes), 'big.wav', { type: 'audio/wav' });
    return client.audio.transcriptions.create({ file, model: 'whisper-1' }).then(
      () => {
        throw new Error('the request was accepted');
      },
      (error: unknown) => error,
    );
  }

  it.each([
    ['413 past the upload limit', () => fullKey, 413],
    ['401 with a bad key', () => BAD_KEY, 401],
    ['403 for a key without transcription', () => assetsOnly, 403],
  ] as const)('%s: an APIError with the status and the error message', async (_label, key, status) => {
    const error = await refusal(key(), BIG);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
    expect(typeof (error as InstanceType<typeof OpenAI.APIError>).error).toBe('string');
    expect(await health()).toBe(200);
  });
});

/**
 * Sends a request `head`, then body bytes after the answer, `chunk` at a time (every `everyMs`, or as fast as the
 * socket takes them), framed as chunked transfer coding when `chunked`. Stops when the server closes the socket.
 */
function sendPastTheAnswer(head: string, { chunk = 256 * 1024, everyMs = 0, chunked = false } = {}) {
  type Sent = { answer: string; accepted: number; closedAfterMs: number; endedCleanly: boolean };
  return new Promise<Sent>((resolve) => {
    const socket = connect(srv.port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let accepted = 0;
    let endedCleanly = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, accepted, closedAfterMs: Date.now() - started, endedCleanly });
    };
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('end', () => (endedCleanly = true)); // a FIN after the answer, not a reset
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(head);
    const data = Buffer.alloc(chunk, 0x61);
    const block = chunked
      ? Buffer.concat([Buffer.from(`${chunk.toString(16)}\r\n`), data, Buffer.from('\r\n')])
      : data;
    const pump = () => {
      while (!done) {
        const ok = socket.write(block, (error) => {
          if (!error) accepted += chunk;
        });
        if (!ok || everyMs > 0) return;
      }
    };
    if (everyMs === 0) socket.on('drain', pump);
    const timer = setInterval(() => everyMs > 0 && pump(), everyMs || 1_000);
    const giveUp = setTimeout(finish, 30_000);
    pump();
  });
}

const refusedUpload = () =>
  `POST /api/v1/uploads HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAuthorization: Bearer ${BAD_KEY}\r\n` +
  `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${1 << 30}\r\n\r\n`;

describe('the drain is bounded', () => {
  it('a client that keeps sending past the byte bound gets the answer, then is cut off', async () => {
    const result = await sendPastTheAnswer(refusedUpload());
    expect(result.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(result.answer).toContain('"error"');
    // the server stopped reading soon after the bound (kernel buffers hold a few MiB more)
    expect(result.accepted).toBeLessThan(DRAIN_BYTES + 48 * MiB);
    expect(result.closedAfterMs).toBeLessThan(DRAIN_MS);
    // a half-close: a reset could reach a client still writing before it read the answer
    expect(result.endedCleanly).toBe(true);
    expect(await health()).toBe(200);
  });

  it('a client that trickles bytes past the time bound gets the answer, then is cut off', async () => {
    const result = await sendPastTheAnswer(refusedUpload(), { chunk: 1024, everyMs: 100 });
    expect(result.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(DRAIN_MS - 500);
    expect(result.closedAfterMs).toBeLessThan(DRAIN_MS + 5_000);
    expect(result.endedCleanly).toBe(true);
    expect(await health()).toBe(200);
  });

  it('an endless chunked part refused mid-stream gets its 413, then is cut off', async () => {
    const begin = await fetch(`${srv.url}/api/v1/uploads/chunked`, {
      method: 'POST',
      headers: { authorization: `Bearer ${transcriptionOnly}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'a.wav', contentType: 'audio/wav', size: MiB, partSize: MiB }),
    });
    const { uploadId } = (await begin.json()) as { uploadId: string };
    const result = await sendPastTheAnswer(
      `PUT /api/v1/uploads/chunked/${uploadId}/parts/0 HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\n` +
        `Authorization: Bearer ${transcriptionOnly}\r\nContent-Type: application/octet-stream\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n',
      { chunked: true },
    );
    expect(result.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(result.accepted).toBeLessThan(DRAIN_BYTES + 48 * MiB);
    expect(result.closedAfterMs).toBeLessThan(DRAIN_MS);
    expect(result.endedCleanly).toBe(true);
    expect(await health()).toBe(200);
  });
});

describe('WebSocket upgrades', () => {
  it('a client that resets its connection while its upgrade is checked or refused does not end the server', async () => {
    const upgrade = (i: number) =>
      `GET /api/v1/realtime/ws HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
      `Authorization: Bearer ${BAD_KEY.slice(0, -4)}${String(i).padStart(4, '0')}\r\n\r\n`;
    // the reset lands at different points of the check and the refusal from one connection to the next
    for (let i = 0; i < 200; i++)
      await new Promise<void>((resolve) => {
        const socket = connect(srv.port, '127.0.0.1', () => {
          socket.write(upgrade(i));
          setTimeout(() => {
            socket.resetAndDestroy();
            resolve();
          }, i % 3);
        });
        socket.on('error', () => resolve());
      });
    expect(await health()).toBe(200);
  });

  it('a message past the size bound closes that socket (1009), and the server goes on', async () => {
    const realtimeKey = await srv.createKey(['realtime']);
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/api/v1/realtime/ws`, {
      headers: { authorization: `Bearer ${realtimeKey}` },
    });
    ws.on('error', () => undefined);
    await once(ws, 'open');
    ws.send(Buffer.alloc(2 * MiB));
    const [code] = await once(ws, 'close');
    expect(code).toBe(1009);
    expect(await health()).toBe(200);
  });
});
