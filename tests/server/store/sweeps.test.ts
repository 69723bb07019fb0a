// The sweeper: expired grants and crash leftovers (bytes without a record, part directories without an upload) are
// removed at start-up and on a timer, and what was removed is logged with counts.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadGrants } from '../../../server/domains/uploads/grant/collections.js';
import { startTestServer } from '../../helpers/server.js';

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('sweeper', () => {
  it('removes upload grants an hour past expiry on its timer and logs the count', async () => {
    const srv = await startTestServer({ sweepMs: 50 });
    try {
      const key = await srv.createKey({ services: ['assets'] });
      const minted = await srv.as({ bearer: key })('/api/v1/uploads/grant', { method: 'POST', body: '{}' });
      expect(minted.status).toBe(201);
      const me = (await (await srv.as({ bearer: key })('/api/v1/me')).json()) as {
        workspace: { id: string };
      };
      const grants = srv.services.store.collection(uploadGrants, me.workspace.id);
      const [grant] = await grants.all();
      await grants.update(grant.id, { expiresAt: new Date(Date.now() - 2 * 3600_000).toISOString() });
      await waitFor(async () => (await grants.count()) === 0);
      await waitFor(() => srv.logs.some((l) => /^Swept .*1 expired upload grants/.test(l)));
      const used = await fetch(`${srv.url}/api/v1/uploads/client`, {
        method: 'POST',
        headers: { authorization: `Bearer ${((await minted.json()) as { grant: string }).grant}` },
      });
      expect(used.status).toBe(401);
    } finally {
      await srv.close();
    }
  });

  it('removes at start-up the bytes and part directories a crash left without records, and says so', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-sweep-'));
    const first = await startTestServer({ dataDir });
    const form = new FormData();
    form.append('file', new Blob(['kept bytes']), 'kept.txt');
    const kept = (await (
      await first.as(first.owner)('/api/v1/uploads', { method: 'POST', body: form })
    ).json()) as {
      id: string;
    };
    const me = (await (await first.as(first.owner)('/api/v1/me')).json()) as { workspace: { id: string } };
    await first.close();
    const ws = me.workspace.id;
    await writeFile(join(dataDir, 'workspaces', ws, 'files', 'ast_orphan000000000000'), 'no record');
    await mkdir(join(dataDir, 'chunked', ws, 'upl_orphan000000000000'), { recursive: true });
    await writeFile(join(dataDir, 'chunked', ws, 'upl_orphan000000000000', '0.part'), 'part');
    const again = await startTestServer({ dataDir });
    try {
      expect(await readdir(join(dataDir, 'workspaces', ws, 'files'))).toEqual([kept.id]);
      expect(await readdir(join(dataDir, 'chunked')).catch(() => [])).toEqual([]);
      const line = again.logs.find((l) => l.startsWith('Swept '));
      expect(line).toMatch(/1 orphaned chunked upload directories/);
      expect(line).toMatch(/1 asset files without a record/);
      expect((await again.as(again.owner)(`/api/v1/assets/${kept.id}`)).status).toBe(200);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
