// Every bad input is a clear 4xx `{error}` (400 with `issues` for validation),
// never a 5xx; the server keeps serving and stored data stays as it was.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let srv: TestServer;
let port: number;
let keyId: string;
let workspaceId: string;
let assetsKey: string;
beforeAll(async () => {
  srv = await startTestServer();
  port = Number(new URL(srv.url).port);
  ({ id: keyId, workspaceId } = await srv.createKeyDetails({ services: ['assets'] }));
  assetsKey = await srv.createKey({ services: ['assets'] });
});
afterAll(() => srv.close());

type Case = {
  label: string;
  method: string;
  path: string;
  body?: string | Buffer;
  type?: string;
  status: number | number[];
  issues?: boolean;
  key?: boolean;
};

const deep = (n: number) => `{"name":${'['.repeat(n)}${']'.repeat(n)}}`;
const BAD_EMAILS = [
  'not-an-email',
  'a@',
  '@b.c',
  'a b@c.d',
  `${'a'.repeat(250)}@example.com`,
  'a@b@c.d',
  '<a@b.c>',
  'a@b.c\nBcc: x@y.z',
  '',
  ' ',
];
const BAD_IDS = [
  'nope',
  'ws_short',
  `ws_${'A'.repeat(21)}`,
  'ws_AAAAAAAAAAAAAAAAAAA%21',
  '..%2F..%2Fetc',
  '%00',
  'ws_%C3%A9AAAAAAAAAAAAAAAAAAA',
];

function cases(): Case[] {
  const ws = `/api/v1/workspaces/${workspaceId}`;
  return [
    { label: 'malformed JSON', method: 'POST', path: '/api/v1/workspaces', body: '{"name":', status: 400 },
    {
      label: 'trailing garbage after JSON',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a"} x',
      status: 400,
    },
    {
      label: 'single-quoted JSON',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: "{'name':'a'}",
      status: 400,
    },
    {
      label: 'a JSON string, not an object',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '"name"',
      status: 400,
    },
    {
      label: 'a JSON array',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '[]',
      status: 400,
      issues: true,
    },
    {
      label: 'JSON null',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: 'null',
      status: 400,
      issues: true,
    },
    {
      label: 'a UTF-8 byte-order mark',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '\ufeff{"name":1}',
      status: 400,
    },
    {
      label: 'JSON in latin1',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a"}',
      type: 'application/json; charset=latin1',
      status: 415,
    },
    {
      label: 'no body where one is required',
      method: 'POST',
      path: '/api/v1/workspaces',
      status: 400,
      issues: true,
    },
    {
      label: 'text/plain body',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a"}',
      type: 'text/plain',
      status: 415,
    },
    {
      label: 'urlencoded form',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: 'name=a',
      type: 'application/x-www-form-urlencoded',
      status: 415,
    },
    {
      label: 'multipart form',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '--x\r\n\r\n--x--',
      type: 'multipart/form-data; boundary=x',
      status: 415,
    },
    {
      label: 'JSON in an unsupported charset',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a"}',
      type: 'application/json; charset=utf-7',
      status: 415,
    },
    {
      label: 'oversized body',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: JSON.stringify({ name: 'x'.repeat(2 << 20) }),
      status: 413,
    },
    {
      label: 'name of the wrong type',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":123}',
      status: 400,
      issues: true,
    },
    {
      label: 'name null',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":null}',
      status: 400,
      issues: true,
    },
    {
      label: 'name empty',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"   "}',
      status: 400,
      issues: true,
    },
    {
      label: 'name of 1 MB',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: JSON.stringify({ name: 'x'.repeat(1_000_000) }),
      status: 400,
      issues: true,
    },
    {
      label: 'unknown field',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a","owner":"someone"}',
      status: 400,
      issues: true,
    },
    {
      label: '__proto__ key',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a","__proto__":{"personal":true}}',
      status: 400,
      issues: true,
    },
    {
      label: 'constructor key',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"a","constructor":{"prototype":{"x":1}}}',
      status: 400,
      issues: true,
    },
    {
      label: '__proto__ in a key create',
      method: 'POST',
      path: '/api/v1/api-keys',
      body: '{"name":"a","services":[],"__proto__":{"workspaceId":"x"}}',
      status: 400,
      issues: true,
    },
    {
      label: '10k-deep JSON',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: deep(10_000),
      status: 400,
      issues: true,
    },
    { label: '200k-deep JSON', method: 'POST', path: '/api/v1/workspaces', body: deep(200_000), status: 400 },
    {
      label: 'invalid UTF-8 in a JSON string',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
      status: 400,
    },
    {
      label: 'lone surrogate escape',
      method: 'POST',
      path: '/api/v1/workspaces',
      body: '{"name":"\\ud800"}',
      status: [201, 400],
    },
    {
      label: 'services not an array',
      method: 'POST',
      path: '/api/v1/api-keys',
      body: '{"name":"k","services":"assets"}',
      status: 400,
      issues: true,
    },
    {
      label: 'unknown service',
      method: 'POST',
      path: '/api/v1/api-keys',
      body: '{"name":"k","services":["admin"]}',
      status: 400,
      issues: true,
    },
    {
      label: 'key patch with nothing to change',
      method: 'PATCH',
      path: `/api/v1/api-keys/${keyId}`,
      body: '{}',
      status: 400,
      issues: true,
    },
    {
      label: 'key patch with services null',
      method: 'PATCH',
      path: `/api/v1/api-keys/${keyId}`,
      body: '{"services":null}',
      status: 400,
      issues: true,
    },
    {
      label: 'key id of 65 chars',
      method: 'PATCH',
      path: `/api/v1/api-keys/${'k'.repeat(65)}`,
      body: '{"name":"x"}',
      status: 400,
      issues: true,
    },
    ...BAD_IDS.map(
      (id): Case => ({
        label: `workspace id ${JSON.stringify(id)}`,
        method: 'PATCH',
        path: `/api/v1/workspaces/${id}`,
        body: '{"name":"x"}',
        status: [400, 404],
      }),
    ),
    {
      label: 'rename with a number',
      method: 'PATCH',
      path: ws,
      body: '{"name":1}',
      status: 400,
      issues: true,
    },
    ...BAD_EMAILS.flatMap((email): Case[] => [
      {
        label: `sign-in with ${JSON.stringify(email.slice(0, 30))}`,
        method: 'POST',
        path: '/auth/sign-in',
        body: JSON.stringify({ email }),
        status: 400,
        issues: true,
      },
      {
        label: `waitlist with ${JSON.stringify(email.slice(0, 30))}`,
        method: 'POST',
        path: '/api/v1/waitlist',
        body: JSON.stringify({ email }),
        status: 400,
        issues: true,
      },
      {
        label: `invite of ${JSON.stringify(email.slice(0, 30))}`,
        method: 'POST',
        path: '/api/v1/waitlist/invite',
        body: JSON.stringify({ email }),
        status: 400,
        issues: true,
      },
    ]),
    {
      label: 'email of the wrong type',
      method: 'POST',
      path: '/api/v1/waitlist',
      body: '{"email":["a@b.c"]}',
      status: 400,
      issues: true,
    },
    ...['0', '201', '-1', 'abc', '1.5', '1e3', ''].map(
      (limit): Case => ({
        label: `limit=${limit}`,
        method: 'GET',
        path: `/api/v1/assets?limit=${limit}`,
        status: 400,
        issues: true,
        key: true,
      }),
    ),
    {
      label: 'limit given twice',
      method: 'GET',
      path: '/api/v1/assets?limit=1&limit=2',
      status: 400,
      issues: true,
      key: true,
    },
    { label: 'callback without a token', method: 'GET', path: '/auth/callback', status: 400, issues: true },
    {
      label: 'callback with a 1 kB token',
      method: 'GET',
      path: `/auth/callback?token=${'a'.repeat(1000)}`,
      status: 400,
      issues: true,
    },
    ...[
      ['a directory', srv.dataDir],
      ['a missing file', `${srv.dataDir}/missing.bin`],
      ['a device', '/dev/null'],
      ['the root directory', '/'],
      ['a NUL byte', `${srv.dataDir}/x\u0000.bin`],
      ['a relative path', 'models/x.bin'],
    ].map(
      ([what, path]): Case => ({
        label: `model import from ${what}`,
        method: 'POST',
        path: '/api/v1/models/import',
        body: JSON.stringify({ path }),
        status: 400,
      }),
    ),
    { label: 'unknown /api/v1 route', method: 'GET', path: '/api/v1/nope', status: 404 },
    { label: 'known path, wrong method', method: 'PUT', path: '/api/v1/workspaces', body: '{}', status: 405 },
  ];
}

async function send(c: Case): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': c.type ?? 'application/json' };
  if (c.key) headers.authorization = `Bearer ${assetsKey}`;
  else {
    headers.cookie = srv.owner.cookie;
    headers.origin = srv.url;
  }
  return fetch(`${srv.url}${c.path}`, { method: c.method, headers, body: c.body as BodyInit | undefined });
}

/** Everything the suite could have changed if a bad input were taken. */
async function storedState() {
  const get = async (path: string) => (await srv.as(srv.owner)(path)).json();
  return {
    workspaces: await get('/api/v1/workspaces'),
    keys: await get('/api/v1/api-keys'),
    waitlist: await get('/api/v1/waitlist'),
    me: await get('/api/v1/me'),
  };
}

describe('bad input', () => {
  it('answers every bad input with a 4xx {error} (400 with issues for validation), never a 5xx, and keeps serving', async () => {
    await fetch(`${srv.url}/api/v1/me`, { headers: { authorization: `Bearer ${assetsKey}` } }); // settle lastUsedAt
    const before = await storedState();
    const failures: string[] = [];
    for (const c of cases()) {
      const res = await send(c);
      const text = await res.text();
      let body: { error?: unknown; issues?: unknown } = {};
      try {
        body = JSON.parse(text);
      } catch {
        failures.push(`${c.label}: body is not JSON: ${text.slice(0, 80)}`);
      }
      const allowed = Array.isArray(c.status) ? c.status : [c.status];
      if (!allowed.includes(res.status)) failures.push(`${c.label}: ${res.status} ${text.slice(0, 160)}`);
      if (res.status >= 400 && typeof body.error !== 'string') failures.push(`${c.label}: no error message`);
      if (c.issues && res.status === 400 && !Array.isArray(body.issues))
        failures.push(`${c.label}: 400 without issues`);
      if (/\bat \w+ \(|node_modules|\.ts:\d+/.test(text))
        failures.push(`${c.label}: stack trace in the response`);
      const health = await fetch(`${srv.url}/health`);
      if (health.status !== 200) failures.push(`${c.label}: /health answered ${health.status} afterwards`);
    }
    expect(failures).toEqual([]);
    const after = await storedState();
    // The lone-surrogate name may be stored (JSON allows it; PostgreSQL keeps it as U+FFFD); everything else must
    // be as it was.
    after.workspaces.data = after.workspaces.data.filter(
      (w: { name: string }) => w.name !== '\ud800' && w.name !== '\ufffd',
    );
    expect(after).toEqual(before);
  });

  it('survives a request that lies about its Content-Length, and a body cut off mid-way', async () => {
    const lying = await rawRequest(
      port,
      `POST /api/v1/waitlist HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"email":"a@b.c"}`,
    );
    expect(lying.status).toBeGreaterThanOrEqual(400);
    expect(lying.status).toBeLessThan(500);
    const cut = await rawRequest(
      port,
      `POST /api/v1/waitlist HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"email":`,
      1_000,
    ).catch(() => ({ status: 0 }));
    expect(cut.status === 0 || cut.status >= 400).toBe(true);
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  });
});

/** Raw requests Node's HTTP parser refuses before any route runs; each gets its status and a JSON `{ error }`. */
function parserRefusals(host: string): Array<[string, string, number]> {
  const H = `Host: ${host}`;
  const post = (headers: string, body: string) =>
    `POST /api/v1/waitlist HTTP/1.1\r\n${H}\r\n${headers}\r\n\r\n${body}`;
  const get = (headers: string) => `GET /health HTTP/1.1\r\n${H}\r\n${headers}\r\n\r\n`;
  const chunked = 'Content-Type: application/json\r\nTransfer-Encoding: chunked';
  return [
    ['duplicate Content-Length', post('Content-Length: 3\r\nContent-Length: 4', 'abcd'), 400],
    ['duplicate equal Content-Length', post('Content-Length: 3\r\nContent-Length: 3', 'abc'), 400],
    [
      'Content-Length with Transfer-Encoding',
      post('Content-Length: 3\r\nTransfer-Encoding: chunked', '0\r\n\r\n'),
      400,
    ],
    ['non-hex chunk size', post(chunked, 'zz\r\nabc\r\n0\r\n\r\n'), 400],
    ['chunk size overflow', post(chunked, 'fffffffffffffffffff\r\nabc\r\n'), 400],
    ['negative chunk size', post(chunked, '-3\r\nabc\r\n0\r\n\r\n'), 400],
    ['chunk data without its CRLF', post(chunked, '3\r\nabcX0\r\n\r\n'), 400],
    ['control character in a chunk extension', post(chunked, '3;\x01\r\nabc\r\n0\r\n\r\n'), 400],
    ['malformed trailer', post(chunked, '0\r\nBad Trailer\r\n\r\n'), 400],
    ['chunked not the last transfer coding', post('Transfer-Encoding: chunked, gzip', '0\r\n\r\n'), 400],
    ['unknown transfer coding', post('Transfer-Encoding: foo', 'abc'), 400],
    ['negative Content-Length', post('Content-Length: -1', ''), 400],
    ['non-numeric Content-Length', post('Content-Length: abc', ''), 400],
    ['Content-Length list', post('Content-Length: 3, 3', 'abc'), 400],
    ['Content-Length overflow', post('Content-Length: 99999999999999999999999', ''), 400],
    ['header overflow', get(`X-Big: ${'a'.repeat(20_000)}`), 431],
    ['too many headers', get(Array.from({ length: 3000 }, (_, i) => `X-${i}: v`).join('\r\n')), 431],
    ['request line overflow', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\n${H}\r\n\r\n`, 431],
    ['space in a header name', get('Bad Header: x'), 400],
    ['header line without a colon', get('NoColonHere'), 400],
    ['space before the colon', get('X-A : x'), 400],
    ['obsolete line folding', get('X-A: a\r\n b'), 400],
    ['NUL in a header value', get('X-A: a\x00b'), 400],
    ['bare CR in a header value', get('X-A: a\rb'), 400],
    ['bare LF line endings', `GET /health HTTP/1.1\n${H}\n\n`, 400],
    ['invalid method', `G@T /health HTTP/1.1\r\n${H}\r\n\r\n`, 400],
    ['invalid HTTP version', `GET /health HTTP/1.x\r\n${H}\r\n\r\n`, 400],
    ['space in the request target', `GET /a b HTTP/1.1\r\n${H}\r\n\r\n`, 400],
    ['control character in the request target', `GET /a\x01b HTTP/1.1\r\n${H}\r\n\r\n`, 400],
    ['TLS handshake on the plain port', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 400],
  ];
}

describe('requests the HTTP parser refuses', () => {
  it('answers each with its status and a JSON { error }, and /health answers after each', async () => {
    const failures: string[] = [];
    for (const [label, request, status] of parserRefusals(`127.0.0.1:${port}`)) {
      const res = await rawRequest(port, Buffer.from(request, 'latin1'));
      if (res.status !== status) failures.push(`${label}: ${res.status} instead of ${status}`);
      if (!/^content-type: application\/json/im.test(res.headers)) failures.push(`${label}: not JSON`);
      let error: unknown;
      try {
        error = JSON.parse(res.body).error;
      } catch {
        failures.push(`${label}: body ${JSON.stringify(res.body.slice(0, 60))}`);
      }
      if (typeof error !== 'string' || error.length === 0) failures.push(`${label}: no error message`);
      const health = await fetch(`${srv.url}/health`);
      if (health.status !== 200) failures.push(`${label}: /health answered ${health.status} afterwards`);
    }
    expect(failures).toEqual([]);
  });

  it('answers a request that timed out (as Node reports it) with 408 and a JSON { error }', async () => {
    const accepted = new Promise<import('node:net').Socket>((resolve) =>
      srv.server.http.once('connection', resolve),
    );
    const client = connect(port, '127.0.0.1');
    client.setTimeout(5_000, () => client.destroy());
    const received: Buffer[] = [];
    client.on('data', (d) => received.push(d));
    const closed = new Promise((resolve) => client.on('close', resolve));
    client.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`); // the rest never comes
    const socket = await accepted;
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    srv.server.http.emit('clientError', timeout, socket);
    await closed;
    const text = Buffer.concat(received).toString();
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(text.split('\r\n\r\n')[1])).toEqual({ error: expect.any(String) });
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  });
});
