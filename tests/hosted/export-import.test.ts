// `folio export` / `folio import` between backends: a desktop data folder into PostgreSQL + S3 and back, checked
// by hashes, and the moved instance serves the same keys, records and bytes.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../server/cli/archive.js';
import type { S3Settings } from '../../server/store/s3/client.js';
import { createTestDatabase, testS3Settings } from '../helpers/hosted/services.js';
import { startTestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
const temp = async (name: string) => {
  const dir = await mkdtemp(join(tmpdir(), `folio-${name}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

/** `npm run folio -- <args>` as an operator runs it, with the backend in the environment. */
async function folio(args: string[], env: Record<string, string> = {}) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'server/cli/main.ts', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    },
  );
  return stdout;
}

const hostedEnv = (url: string, s3: S3Settings) => ({
  FOLIO_DATABASE_URL: url,
  FOLIO_S3_BUCKET: s3.bucket,
  FOLIO_S3_ENDPOINT: s3.endpoint!,
  FOLIO_S3_ACCESS_KEY_ID: s3.accessKeyId!,
  FOLIO_S3_SECRET_ACCESS_KEY: s3.secretAccessKey!,
  FOLIO_S3_PREFIX: s3.prefix!,
});

describe('moving an instance between backends', () => {
  it('exports a desktop folder, imports it into PostgreSQL + S3 and back, byte for byte', async () => {
    // A desktop instance with a user, a key, a second workspace and assets
    const desktopDir = await temp('desktop');
    const desktop = await startTestServer({ dataDir: desktopDir, database: undefined, s3: undefined });
    const key = await desktop.createKey({ services: ['assets'] });
    const friend = await desktop.signInApproved('friend@example.com');
    const bodies = [randomBytes(200_000), Buffer.from('plain text\n'), randomBytes(3)];
    const uploaded: Array<{ id: string; key: string; sha256: string }> = [];
    for (const [i, body] of bodies.entries()) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(body)]), `file-${i}.bin`);
      const res = await fetch(`${desktop.url}/api/v1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      uploaded.push((await res.json()) as { id: string; key: string; sha256: string });
    }
    const me = await (await desktop.as({ bearer: key })('/api/v1/me')).text();
    await desktop.server.close();

    const archive = await temp('archive');
    await folio(['export', archive, '--data-dir', desktopDir]);
    const manifest = JSON.parse(await readFile(join(archive, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.from).toBe('files');
    expect(manifest.blobs.map((b) => b.sha256).sort()).toEqual(bodies.map(sha256).sort());

    // into an empty hosted instance
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const s3 = await testS3Settings();
    const hostedDir = await temp('hosted');
    expect(await folio(['import', archive, '--data-dir', hostedDir], hostedEnv(database.url, s3))).toMatch(
      /Imported and verified \d+ records and 3 blobs into postgres\+s3/,
    );
    const hosted = await startTestServer({ dataDir: hostedDir, database: { url: database.url }, s3 });
    cleanups.push(() => hosted.close());
    expect(await (await hosted.as({ bearer: key })('/api/v1/me')).text()).toBe(me);
    for (const [i, asset] of uploaded.entries()) {
      const bytes = Buffer.from(await (await fetch(`${hosted.url}/f/${asset.key}`)).arrayBuffer());
      expect(sha256(bytes)).toBe(sha256(bodies[i]!));
    }
    const friendMe = await hosted.as(friend)('/api/v1/me'); // a session made on the desktop still works
    expect(friendMe.status).toBe(200);
    // a target that already holds data is refused
    await expect(
      folio(['import', archive, '--data-dir', hostedDir], hostedEnv(database.url, s3)),
    ).rejects.toThrow(/import into a new, empty instance/);
    await hosted.server.close();

    // and back to a desktop folder
    const again = await temp('again');
    await folio(['export', again, '--data-dir', hostedDir], hostedEnv(database.url, s3));
    const back = JSON.parse(await readFile(join(again, 'manifest.json'), 'utf8')) as Manifest;
    expect(back.from).toBe('postgres+s3');
    const byKey = (blobs: Manifest['blobs']) => [...blobs].sort((a, b) => a.key.localeCompare(b.key));
    expect(byKey(back.blobs)).toEqual(byKey(manifest.blobs));
    // the hosted test server signed its owner in once more: one more session and sign-in link, nothing else
    const shape = (m: Manifest) =>
      m.records
        .filter((r) => r.collection !== 'sessions' && r.collection !== 'sign-in-links')
        .map((r) => `${r.collection} ${r.scope} ${r.rows}`)
        .sort();
    expect(shape(back)).toEqual(shape(manifest));
    const desktopAgain = await temp('desktop-again');
    await folio(['import', again, '--data-dir', desktopAgain]);
    const restored = await startTestServer({ dataDir: desktopAgain, database: undefined, s3: undefined });
    cleanups.push(() => restored.close());
    expect(await (await restored.as({ bearer: key })('/api/v1/me')).text()).toBe(me);
    const listed = (await (await restored.as({ bearer: key })('/api/v1/assets')).json()) as {
      data: unknown[];
    };
    expect(listed.data).toHaveLength(3);
  });

  it('refuses a damaged archive before writing anything', async () => {
    const dataDir = await temp('damaged-src');
    const src = await startTestServer({ dataDir, database: undefined, s3: undefined });
    const key = await src.createKey({ services: ['assets'] });
    const form = new FormData();
    form.append('file', new Blob(['bytes']), 'a.txt');
    await fetch(`${src.url}/api/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    await src.server.close();
    const archive = await temp('damaged');
    await folio(['export', archive, '--data-dir', dataDir]);
    const manifest = JSON.parse(await readFile(join(archive, 'manifest.json'), 'utf8')) as Manifest;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(archive, 'blobs', ...manifest.blobs[0]!.key.split('/')), 'tampered');
    const target = await temp('damaged-target');
    await expect(folio(['import', archive, '--data-dir', target])).rejects.toThrow(
      /does not match the manifest/,
    );
  });
});
