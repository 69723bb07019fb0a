// Watched folders on a real server, real temp folders and files and the real engine: a recording that appears is
// imported and transcribed once per content, written beside itself when asked, never through a link; a file that is
// not a recording costs one failed transcript shown with the folder. The folders live in the desktop settings file.
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../../../server/domains/settings/settings-store.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { engineBuilt, type Fixtures, type Json, makeFixtures } from '../../../helpers/transcription.js';
import { foldersOf, settledCount, transcriptsOf, waitFor } from './harness.js';

describe.skipIf(!engineBuilt)('watched folders (desktop settings, micro random model)', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let folder: string;
  let outside: string;
  let settingsPath: string;

  beforeAll(async () => {
    fx = makeFixtures();
    folder = await mkdtemp(join(tmpdir(), 'folio-watched-'));
    outside = await mkdtemp(join(tmpdir(), 'folio-outside-'));
    settingsPath = join(fx.dir, 'settings.json');
    srv = await startTestServer(
      { whisperModel: fx.model },
      { host: { instanceSettings: settingsFile(settingsPath) } },
    );
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
    await rm(folder, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const add = (body: unknown, cred = srv.owner) =>
    srv.as(cred)('/api/v1/watched-folders', { method: 'POST', body: JSON.stringify(body) });

  it('checks the folder it is given and is the instance owner’s alone', async () => {
    expect((await add({ path: 'Recordings' })).status).toBe(400);
    expect((await add({ path: join(folder, 'missing') })).status).toBe(400);
    expect((await add({ path: folder, beside: ['docx'] })).status).toBe(400);
    const key = await srv.createKey({ services: ['transcription'] });
    expect((await srv.as({ bearer: key })('/api/v1/watched-folders')).status).toBe(403);
    const other = await srv.signInApproved('guest@example.com');
    expect((await add({ path: folder }, other)).status).toBe(403);
  });

  it('imports and transcribes a new recording once, writes it beside the recording, and not again on a rename or copy', async () => {
    const added = await add({ path: folder, beside: ['txt', 'srt'] });
    expect(added.status).toBe(201);
    const view = (await added.json()) as Json;
    expect(view).toMatchObject({ path: folder, origin: 'settings', beside: ['txt', 'srt'] });
    expect((await add({ path: folder })).status).toBe(409);
    const saved = JSON.parse(await readFile(settingsPath, 'utf8'));
    expect(saved.watchedFolders).toEqual([
      { path: folder, workspaceId: view.workspaceId, beside: ['txt', 'srt'] },
    ]);

    await copyFile(fx.speech, join(folder, 'interview.wav'));
    const [done] = await waitFor(
      () => transcriptsOf(srv),
      (list) => settledCount(list) === 1,
    );
    expect(done.status).toBe('completed');
    const srt = await waitFor(
      () => readFile(join(folder, 'interview.srt'), 'utf8').catch(() => ''),
      (text) => text !== '',
    );
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    const exported = await srv.as(srv.owner)(`/api/v1/transcripts/${done.id}/export?format=txt`);
    expect(await readFile(join(folder, 'interview.txt'), 'utf8')).toBe(await exported.text());

    await rename(join(folder, 'interview.wav'), join(folder, 'renamed.wav'));
    await copyFile(join(folder, 'renamed.wav'), join(folder, 'copy.wav'));
    await writeFile(join(folder, 'second.txt'), 'my own notes\n'); // a name Folio would write: left alone
    await copyFile(fx.speech, join(outside, 'second.wav'));
    await writeFile(join(outside, 'second.wav'), Buffer.from('RIFF-not-the-same'), { flag: 'a' });
    await copyFile(join(outside, 'second.wav'), join(folder, 'second.wav')); // a new content, after the copies
    const list = await waitFor(
      () => transcriptsOf(srv),
      (l) => settledCount(l) === 2,
    );
    expect(list).toHaveLength(2); // the rename and the copy made nothing
    await waitFor(
      () => readFile(join(folder, 'second.srt'), 'utf8').catch(() => ''),
      (text) => text !== '',
    );
    expect(await readFile(join(folder, 'second.txt'), 'utf8')).toBe('my own notes\n');
    expect(await readFile(join(folder, 'renamed.wav'))).toEqual(fx.speechBytes);
    const folders = await foldersOf(srv);
    expect(folders.data[0]).toMatchObject({ state: 'watching', imported: 2, pending: 0, failures: [] });
  });

  it('costs one failed transcript for a file that is not a recording, listed with the folder', async () => {
    const before = (await transcriptsOf(srv)).length;
    await writeFile(join(folder, 'notes.pdf'), Buffer.from('%PDF-1.4 not audio at all'));
    const folders = await waitFor(
      () => foldersOf(srv),
      (f) => f.data[0].failures.length === 1,
    );
    const [failure] = folders.data[0].failures;
    expect(failure).toMatchObject({ name: 'notes.pdf', error: expect.stringMatching(/decode/) });
    const list = await transcriptsOf(srv);
    expect(list).toHaveLength(before + 1);
    expect(list.find((t) => t.id === failure.transcriptId)?.status).toBe('failed');
  });

  it('follows no link out of the folder, to a file or to a folder', async () => {
    const before = (await transcriptsOf(srv)).length;
    const away = join(outside, 'elsewhere');
    await mkdir(away);
    await copyFile(fx.speech, join(away, 'outside.wav'));
    await writeFile(join(away, 'outside.wav'), Buffer.from('outside'), { flag: 'a' });
    await symlink(join(away, 'outside.wav'), join(folder, 'link.wav'));
    await symlink(away, join(folder, 'linked-folder'));
    await copyFile(fx.speech, join(folder, 'sentinel.wav'));
    await writeFile(join(folder, 'sentinel.wav'), Buffer.from('sentinel'), { flag: 'a' });
    const list = await waitFor(
      () => transcriptsOf(srv),
      (l) => settledCount(l) === before + 1,
    );
    expect(list).toHaveLength(before + 1); // the sentinel only
  });

  it('stops watching a removed folder and leaves its files as they are', async () => {
    const [watched] = (await foldersOf(srv)).data;
    const removed = await srv.as(srv.owner)(`/api/v1/watched-folders/${watched.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await foldersOf(srv)).data).toEqual([]);
    expect(JSON.parse(await readFile(settingsPath, 'utf8')).watchedFolders).toEqual([]);
    expect(await readFile(join(folder, 'renamed.wav'))).toEqual(fx.speechBytes);
  });
});
