// The discovery file: written while the server runs (base URL, MCP, OpenAPI and llms.txt URLs, pid, version, how
// to get a key; never a secret), removed on a clean shutdown, left behind by a crash and then known to be stale.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryPath, readDiscovery } from '../../../../server/surfaces/mcp/discovery.js';
import { APP_VERSION } from '../../../../server/version.js';
import { spawnServer } from '../../../helpers/child-server.js';
import { startTestServer } from '../../../helpers/server.js';
import { callOk, connect } from './harness.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-discovery-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('server.json', () => {
  it('says where the running server is, every URL in it answers, and it holds no secret', async () => {
    const srv = await startTestServer({ dataDir });
    try {
      const key = await srv.createKey({ services: ['assets'] });
      const text = await readFile(discoveryPath(dataDir), 'utf8');
      const found = JSON.parse(text);
      expect(found).toEqual({
        name: 'Folio',
        version: APP_VERSION,
        pid: process.pid,
        startedAt: expect.any(String),
        url: srv.url,
        mcp: `${srv.url}/mcp`,
        openapi: `${srv.url}/api/v1/openapi.json`,
        llms: `${srv.url}/llms.txt`,
        llmsFull: `${srv.url}/llms-full.txt`,
        keys: expect.stringContaining('Authorization: Bearer <key>'),
      });
      for (const url of [found.openapi, found.llms, found.llmsFull])
        expect((await fetch(url)).status, url).toBe(200);
      const client = await connect({ ...srv, url: found.url }, key);
      expect((await callOk(client, 'account_me')).viaKey).toBe(true);
      await client.close();
      // nothing a request could authenticate with: no key, no session, no sign-in token
      expect(text).not.toMatch(/fk_[A-Za-z0-9]|token=|folio_session/);
      expect(text).not.toContain(srv.owner.cookie.split('=')[1]);
      expect((await readDiscovery(dataDir))?.stale).toBe(false);
    } finally {
      await srv.close();
    }
    expect(existsSync(discoveryPath(dataDir))).toBe(false);
  });

  it('the headless server removes it on SIGTERM; after a kill -9 it stays, is known stale, and the next start replaces it', async () => {
    const first = await spawnServer(['--port', '0', '--data-dir', dataDir, '--no-fsync']);
    const written = JSON.parse(readFileSync(discoveryPath(dataDir), 'utf8'));
    expect(written).toMatchObject({ pid: first.proc.pid, url: first.url });
    await first.kill('SIGTERM');
    expect(existsSync(discoveryPath(dataDir))).toBe(false);

    const crashed = await spawnServer(['--port', '0', '--data-dir', dataDir, '--no-fsync']);
    await crashed.kill('SIGKILL');
    expect(await readDiscovery(dataDir)).toMatchObject({ discovery: { pid: crashed.proc.pid }, stale: true });
    const printed = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts', '--print-mcp-config', 'codex', '--data-dir', dataDir],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(printed).toContain('url = "http://127.0.0.1:4780/mcp"'); // a stale file's URL is not offered

    const next = await spawnServer(['--port', '0', '--data-dir', dataDir, '--no-fsync']);
    try {
      expect(await readDiscovery(dataDir)).toMatchObject({
        discovery: { pid: next.proc.pid, url: next.url },
        stale: false,
      });
    } finally {
      await next.kill('SIGTERM');
    }
  });
});
