// /mcp is key-only (a session cookie never authorizes it), checks Origin and Host, and binds each session to the
// key that opened it; ended and idle sessions are gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { callOk, connect } from './harness.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(headers: Record<string, string>, body = initialize) {
  const res = await fetch(`${srv.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, ...headers }, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('who may use /mcp', () => {
  it('answers 401 without a credential, and initializes with a key', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toEqual({ error: expect.stringContaining('Authentication required') });
    const key = await srv.createKey({ services: ['assets'] });
    const ok = await post({ authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.text).toContain('"serverInfo":{"name":"folio"');
  });

  it('refuses the signed-in session cookie, with or without our own Origin: MCP is for keys', async () => {
    const cookies: Array<Record<string, string>> = [
      { cookie: srv.owner.cookie },
      { cookie: srv.owner.cookie, origin: srv.url },
    ];
    for (const headers of cookies) {
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text).error).toMatch(/needs an API key/);
    }
  });

  it('refuses grants and unknown bearer tokens', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const client = await connect(srv, key);
    const { grant } = await callOk(client, 'assets_mint_grant');
    await client.close();
    expect((await post({ authorization: `Bearer ${grant}` })).status).toBe(403);
    expect((await post({ authorization: 'Bearer nonsense' })).status).toBe(401);
  });

  it("checks Origin: another site's page is refused even with a valid key; our own origin passes", async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const auth = { authorization: `Bearer ${key}` };
    for (const origin of ['http://evil.example', 'http://localhost:1', 'null']) {
      const res = await post({ ...auth, origin });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.text).error).toMatch(/Cross-origin/);
    }
    expect((await post({ ...auth, origin: srv.url })).status).toBe(200);
  });

  it('keeps the host guard in front: a rebound Host is refused before anything else', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const { port } = new URL(srv.url);
    const res = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/mcp',
            method: 'POST',
            headers: { ...mcpHeaders, host: `evil.example:${port}`, authorization: `Bearer ${key}` },
          },
          (r) => resolve(r.statusCode ?? 0),
        );
        req.on('error', reject);
        req.end(initialize);
      });
    });
    expect(res).toBe(403);
  });
});

describe('sessions', () => {
  it('a session belongs to the key that opened it: another key presenting its id finds nothing', async () => {
    const a = await srv.createKey({ services: ['assets'] });
    const b = await srv.createKey({ services: ['assets'] });
    const opened = await post({ authorization: `Bearer ${a}` });
    const sessionId = opened.headers.get('mcp-session-id')!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    const stolen = await post({ ...headers, authorization: `Bearer ${b}` }, list);
    expect(stolen.status).toBe(404);
    expect(JSON.parse(stolen.text).error).toMatch(/session not found/);
    await post(
      { ...headers, authorization: `Bearer ${a}` },
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    const own = await post({ ...headers, authorization: `Bearer ${a}` }, list);
    expect(own.status).toBe(200);
    expect(own.text).toContain('assets_list');
  });

  it('refuses JSON-RPC batches and bodies that are not strict JSON, with the usual error body', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const auth = { authorization: `Bearer ${key}` };
    const batch = await post(auth, `[${initialize},${initialize}]`);
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.text).error).toMatch(/one JSON-RPC message per request/);
    const proto = await post(auth, '{"jsonrpc":"2.0","id":1,"method":"initialize","__proto__":{"x":1}}');
    expect(proto.status).toBe(400);
    expect((await post(auth, '{"jsonrpc":')).status).toBe(400);
  });

  it('a request that is not initialize and names no session opens nothing', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const before = srv.deps.mcp.sessions.size;
    const res = await post(
      { authorization: `Bearer ${key}` },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(res.status).toBe(400);
    expect(srv.deps.mcp.sessions.size).toBe(before);
  });

  it('answers a plain call as one JSON body, and a call that asks for progress as an SSE stream', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const auth = { authorization: `Bearer ${key}` };
    const sessionId = (await post(auth)).headers.get('mcp-session-id')!;
    const headers = { ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    await post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const call = (id: number, meta?: object) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'assets_list', arguments: {}, ...(meta && { _meta: meta }) },
      });
    const plain = await post(headers, call(2));
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.headers.get('mcp-session-id')).toBe(sessionId);
    expect(JSON.parse(plain.text)).toMatchObject({ id: 2, result: { structuredContent: { data: [] } } });
    const streamed = await post(headers, call(3, { progressToken: 'p' }));
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(streamed.text).toMatch(/^event: message\ndata: \{.*"id":3/m);
  });

  it('holds one GET stream per session, and refuses initialize inside a session', async () => {
    const key = await srv.createKey({ services: ['assets'] });
    const auth = { authorization: `Bearer ${key}` };
    const sessionId = (await post(auth)).headers.get('mcp-session-id')!;
    const headers = { ...auth, 'mcp-session-id': sessionId, accept: 'text/event-stream' };
    const open = new AbortController();
    const stream = await fetch(`${srv.url}/mcp`, { headers, signal: open.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const second = await fetch(`${srv.url}/mcp`, { headers });
    expect(second.status).toBe(409);
    open.abort();
    const again = await post({ ...auth, 'mcp-session-id': sessionId });
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text).error).toMatch(/already initialized/);
  });

  it('DELETE ends a session; the sweep closes idle ones but not one with its stream open', async () => {
    const { bearer: key, id: keyId } = await srv.createKeyDetails({ services: ['assets'] });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const ask = (sessionId: string) =>
      post({ authorization: `Bearer ${key}`, 'mcp-session-id': sessionId }, list);
    const ended = await connect(srv, key);
    const endedId = (ended.transport as { sessionId?: string }).sessionId!;
    await (ended.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
    expect((await ask(endedId)).status).toBe(404);

    // a raw client that initialized and went away; an SDK client holding its server stream open
    const idleId = (await post({ authorization: `Bearer ${key}` })).headers.get('mcp-session-id')!;
    const live = await connect(srv, key);
    const liveId = (live.transport as { sessionId?: string }).sessionId!;
    // the SDK client opens its GET stream right after initialize; wait until the server holds it
    while (!srv.deps.mcp.sessions.find(liveId, keyId)?.active) await new Promise((r) => setTimeout(r, 10));
    expect(await srv.deps.mcp.sessions.sweep(Date.now() + 31 * 60_000)).toBeGreaterThanOrEqual(1);
    expect((await ask(idleId)).status).toBe(404);
    expect((await callOk(live, 'assets_list')).data).toEqual([]);
    await live.close();
  });
});
