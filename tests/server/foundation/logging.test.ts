// The server's log: each line at the level its caller chose (not guessed from its words), an unexpected error's
// stack under it, request lines that name the route pattern and never a token or a query, plain lines on the
// desktop's console, and the desktop's rotating file.
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { errorBoundary } from '../../../server/http/error-boundary.js';
import { createLogger } from '../../../server/log.js';
import { openLogFile } from '../../../server/log-file.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const srv of servers.splice(0)) await srv.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function start(overrides: Parameters<typeof startTestServer>[0] = {}) {
  const srv = await startTestServer(overrides);
  servers.push(srv);
  return srv;
}

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'folio-log-'));
  dirs.push(dir);
  return dir;
}

const parsed = (srv: TestServer) => srv.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('levels chosen where the line is written', () => {
  it('a problem worded without "failed" is a warning; an info line that says "error" is not', async () => {
    const dir = await tempDir();
    const bad = join(dir, 'not-a-model.bin');
    await writeFile(bad, 'definitely not ggml');
    const srv = await start({ logFormat: 'json', nodeId: 'node-1', whisperModel: bad });
    await expect
      .poll(() => parsed(srv).find((l) => String(l.msg).startsWith('Whisper model problem')))
      .toMatchObject({ level: 'warn', node: 'node-1', msg: expect.stringContaining(bad) });

    const res = await fetch(`${srv.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: srv.url },
      body: JSON.stringify({ email: 'error@example.com' }),
    });
    expect(res.status).toBe(202);
    const link = parsed(srv).find((l) => String(l.msg).startsWith('Sign-in link for error@example.com: '));
    expect(link).toMatchObject({ level: 'info', node: 'node-1' });
    expect(typeof link?.time).toBe('string');
  });

  it('prints plain lines on the desktop: the message alone, as the start-up lines read', async () => {
    const srv = await start({ logFormat: 'text' });
    await fetch(`${srv.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: srv.url },
      body: JSON.stringify({ email: 'plain@example.com' }),
    });
    expect(srv.logs).toContainEqual(
      expect.stringMatching(/^Sign-in link for plain@example\.com: http:\/\/\S+$/),
    );
  });
});

describe('an unexpected error', () => {
  it('answers a bare 500 and logs its stack, naming the route pattern, never the path', async () => {
    const lines: string[] = [];
    const log = createLogger({ logFormat: 'text', nodeId: 'n' }, (line) => lines.push(line));
    const app = new Koa();
    app.silent = true;
    app.use(errorBoundary(log));
    app.use((ctx) => {
      ctx._matchedRoute = '/f/:key';
      throw new Error('the store handed back undefined');
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/f/sk_secretkey?token=hunter2`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'Internal server error' });
    } finally {
      server.close();
    }
    expect(lines).toHaveLength(1);
    const [first, ...stack] = lines[0].split('\n');
    expect(first).toBe('Unexpected error in GET /f/:key');
    expect(stack[0]).toBe('Error: the store handed back undefined');
    expect(stack[1]).toMatch(/^\s+at /);
    expect(lines[0]).not.toMatch(/sk_secretkey|hunter2/);
  });

  it('is one JSON line on a hosted instance, level error, with the stack in err', () => {
    const lines: string[] = [];
    const log = createLogger({ logFormat: 'json', nodeId: 'node-9' }, (line) => lines.push(line));
    log.error('Unexpected error in GET /api/v1/assets', new TypeError('reading a property of undefined'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'error',
      node: 'node-9',
      msg: 'Unexpected error in GET /api/v1/assets',
      err: {
        type: 'TypeError',
        stack: expect.stringMatching(/^TypeError: reading a property of undefined\n\s+at /),
      },
    });
  });
});

describe('request lines on a hosted instance', () => {
  it('name the route pattern, never a sign-in token or a query', async () => {
    const srv = await start({ logFormat: 'json', nodeId: 'node-2' });
    const link = await srv.deps.identity.mintSignInLink('owner@localhost', srv.url, { announce: false });
    const token = new URL(link).searchParams.get('token') as string;
    await (await fetch(link, { redirect: 'manual' })).body?.cancel();
    await (await fetch(`${srv.url}/api/v1/assets?cursor=private-cursor-value`)).body?.cancel();
    await expect.poll(() => parsed(srv).filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(2);
    const requests = parsed(srv).filter((l) => l.msg === 'request');
    expect(requests).toContainEqual(
      expect.objectContaining({ level: 'info', route: '/auth/callback', status: 302, node: 'node-2' }),
    );
    expect(requests).toContainEqual(expect.objectContaining({ route: '/api/v1/assets', status: 401 }));
    const all = srv.logs.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain('private-cursor-value');
  });
});

describe("the desktop's log file", () => {
  it('is written in plain lines with time and level, and rotates past its size, keeping the newest few', async () => {
    const dir = await tempDir();
    const file = await openLogFile(dir, { size: '1k', count: 2 });
    const console: string[] = [];
    const log = createLogger({ logFormat: 'text', nodeId: 'n' }, (line) => console.push(line), file);
    for (let i = 0; i < 60; i++) {
      log.info(`line ${String(i).padStart(3, '0')} ${'x'.repeat(60)}`);
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 20)); // let each file fill and roll
    }
    log.warn('the last line');
    const current = file.current();
    await file.close();

    expect(console[0]).toBe(`line 000 ${'x'.repeat(60)}`);
    const files = (await readdir(join(dir, 'logs'))).filter((f) => /^folio\.\d+\.log$/.test(f));
    expect(files.length).toBeGreaterThan(1);
    expect(files.length).toBeLessThanOrEqual(3);
    const newest = await readFile(current, 'utf8');
    expect(newest).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN {2}the last line$/m);
    const kept = (await Promise.all(files.map((f) => readFile(join(dir, 'logs', f), 'utf8')))).join('');
    expect(kept).not.toContain('line 000 '); // rolled out with the oldest file
    expect(kept).toMatch(/Z INFO {2}line 059 x+$/m);
  });
});
