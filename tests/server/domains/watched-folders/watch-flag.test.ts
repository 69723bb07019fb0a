// A headless server's --watch folder: imported into the owner's personal workspace, listed as the command line's
// (not editable over HTTP), and what arrived while the server was stopped is found at the next start, while what it
// imported before is not imported again.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { engineBuilt, type Fixtures, makeFixtures } from '../../../helpers/transcription.js';
import { foldersOf, settledCount, transcriptsOf, waitFor } from './harness.js';

describe.skipIf(!engineBuilt)('--watch on a headless server (micro random model)', () => {
  let fx: Fixtures;
  let folder: string;
  let dataDir: string;
  let srv: TestServer | undefined;

  beforeAll(async () => {
    fx = makeFixtures();
    folder = await mkdtemp(join(tmpdir(), 'folio-watch-flag-'));
    dataDir = await mkdtemp(join(tmpdir(), 'folio-watch-data-'));
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = () =>
    startTestServer({ dataDir, whisperModel: fx.model, watch: [folder], watchBeside: ['txt'] });

  it('imports into the owner’s workspace; files added while stopped are found at the next start', async () => {
    await copyFile(fx.speech, join(folder, 'before-start.wav'));
    srv = await start();
    const first = await waitFor(
      () => transcriptsOf(srv as TestServer),
      (l) => settledCount(l) === 1,
    );
    expect(first[0].status).toBe('completed');
    const folders = await foldersOf(srv);
    expect(folders.editable).toBe(false);
    expect(folders.data).toMatchObject([
      { path: folder, origin: 'command line', beside: ['txt'], imported: 1 },
    ]);
    const added = await srv.as(srv.owner)('/api/v1/watched-folders', {
      method: 'POST',
      body: JSON.stringify({ path: fx.dir }),
    });
    expect(added.status).toBe(409);
    expect((await added.json()).error).toMatch(/--watch/);
    const removed = await srv.as(srv.owner)(`/api/v1/watched-folders/${folders.data[0].id}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(409);
    await waitFor(
      () => readFile(join(folder, 'before-start.txt'), 'utf8').catch(() => ''),
      (text) => text !== '',
    );
    await srv.close();
    srv = undefined;

    await copyFile(fx.speech, join(folder, 'while-stopped.wav'));
    await writeFile(join(folder, 'while-stopped.wav'), Buffer.from('a different recording'), { flag: 'a' });
    srv = await start();
    const list = await waitFor(
      () => transcriptsOf(srv as TestServer),
      (l) => settledCount(l) === 2,
    );
    expect(list).toHaveLength(2);
    expect((await foldersOf(srv)).data[0]).toMatchObject({ imported: 2, pending: 0 });
  });
});
