// The sweeper: expired grants and crash leftovers (bytes without a record, part directories without an upload) are
// removed at start-up (after the server listens) and on a timer, and what was removed is logged with counts.
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
      const grants = srv.deps.store.collection(uploadGrants, me.workspace.id);
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
    const { kept, ws } = await libraryOfOne(dataDir);
    await writeFile(join(dataDir, 'workspaces', ws, 'files', 'ast_orphan000000000000'), 'no record');
    await mkdir(join(dataDir, 'chunked', ws, 'upl_orphan000000000000'), { recursive: true });
    await writeFile(join(dataDir, 'chunked', ws, 'upl_orphan000000000000', '0.part'), 'part');
    const again = await startTestServer({ dataDir });
    try {
      // Part directories are repaired before serving; asset files are swept once it serves.
      expect(await readdir(join(dataDir, 'chunked')).catch(() => [])).toEqual([]);
      await again.server.sweptAtStart();
      expect(await readdir(join(dataDir, 'workspaces', ws, 'files'))).toEqual([kept]);
      const lines = again.logs.filter((l) => l.startsWith('Swept ')).join('\n');
      expect(lines).toMatch(/1 orphaned chunked upload directories/);
      expect(lines).toMatch(/1 asset files without a record/);
      expect((await again.as(again.owner)(`/api/v1/assets/${kept}`)).status).toBe(200);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('answers before the start-up sweeps run, serves nothing they will remove, and spares bytes put since', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-sweep-'));
    const { kept, ws } = await libraryOfOne(dataDir);
    const files = join(dataDir, 'workspaces', ws, 'files');
    await writeFile(join(files, 'ast_orphan000000000000'), 'left by a crash');
    let release = () => {};
    const holdSweeps = new Promise<void>((resolve) => (release = resolve));
    const again = await startTestServer({ dataDir }, { holdSweeps });
    try {
      const owner = again.as(again.owner);
      expect((await fetch(`${again.url}/ready`)).status).toBe(200);
      expect((await owner('/api/v1/me')).status).toBe(200);
      const page = (await (await owner('/api/v1/assets')).json()) as { data: { id: string }[] };
      expect(page.data.map((a) => a.id)).toEqual([kept]);
      expect((await owner('/api/v1/assets/ast_orphan000000000000')).status).toBe(404);
      // The sweep has not run: the orphan is still on disk, and bytes of an upload under way arrive meanwhile.
      expect((await readdir(files)).sort()).toEqual([kept, 'ast_orphan000000000000'].sort());
      await writeFile(join(files, 'ast_underway0000000000'), 'its record comes next');
      release();
      await again.server.sweptAtStart();
      expect((await readdir(files)).sort()).toEqual([kept, 'ast_underway0000000000'].sort());
      expect(again.logs.join('\n')).toMatch(/Swept 1 asset files without a record/);
    } finally {
      release();
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/** A server's first run on `dataDir` with one upload, closed again; answers the asset's id and its workspace. */
async function libraryOfOne(dataDir: string): Promise<{ kept: string; ws: string }> {
  const first = await startTestServer({ dataDir });
  const form = new FormData();
  form.append('file', new Blob(['kept bytes']), 'kept.txt');
  const res = await first.as(first.owner)('/api/v1/uploads', { method: 'POST', body: form });
  const { id } = (await res.json()) as { id: string };
  const me = (await (await first.as(first.owner)('/api/v1/me')).json()) as { workspace: { id: string } };
  await first.close();
  return { kept: id, ws: me.workspace.id };
}
