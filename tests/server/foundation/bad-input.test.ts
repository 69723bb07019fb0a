// Reliability anchors I.31: every bad input is a clear 4xx `{error}` (400 with `issues` for validation),
// never a 5xx; the server keeps serving and stored data stays as it was.
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
