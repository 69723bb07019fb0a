// Deleting a workspace is final: an upload still streaming into it is refused when it ends, nothing re-creates the
// workspace's directory, its bytes are never served, and a restart does not bring it back.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../../helpers/server.js';

describe('workspace deletion', () => {
  it('refuses an upload that finishes after its workspace was deleted, and the workspace stays gone', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-wsdel-'));
    const srv = await startTestServer({ dataDir });
    const api = srv.as(srv.owner);
    const ws = (await (
      await api('/api/v1/workspaces', { method: 'POST', body: '{"name":"doomed"}' })
    ).json()) as {
      id: string;
    };
    const key = await srv.createKey({ services: ['assets'], workspace: ws.id });
    const boundary = 'folio-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.bin"\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const bytes = Buffer.alloc(256 << 10, 3);
    const url = new URL('/api/v1/uploads', srv.url);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + bytes.length + Buffer.byteLength(tail),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(head);
      req.write(bytes.subarray(0, 1000));
      setTimeout(async () => {
        const del = await api(`/api/v1/workspaces/${ws.id}`, { method: 'DELETE' });
        expect(del.status).toBe(204);
        req.end(Buffer.concat([bytes.subarray(1000), Buffer.from(tail)]));
      }, 200);
    });
    const { status, body } = await answer;
    expect(status).toBe(410);
    expect(JSON.parse(body).error).toMatch(/workspace was deleted/);
    expect(existsSync(join(dataDir, 'workspaces', ws.id))).toBe(false);
    expect((await srv.as({ bearer: key })('/api/v1/assets')).status).toBe(401);
    await srv.close();
    const again = await startTestServer({ dataDir });
    try {
      const list = (await (await again.as(again.owner)('/api/v1/workspaces')).json()) as {
        data: { id: string }[];
      };
      expect(list.data.map((w) => w.id)).not.toContain(ws.id);
      expect(existsSync(join(dataDir, 'workspaces', ws.id))).toBe(false);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
