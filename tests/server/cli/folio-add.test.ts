// `npm run folio -- add <dir>` as a person runs it: into a data folder (the server stopped), resumed after a
// kill -9, and through a running server's API under a tight rate limit. The records are read back through the API.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ON_FILES } from '../../helpers/sync-pair.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
const temp = async (name: string) => {
  const dir = await mkdtemp(join(tmpdir(), `folio-add-${name}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

const folioArgs = (args: string[]) => ['--import', 'tsx', 'server/cli/main.ts', ...args];

function folio(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, folioArgs(args), { cwd: ROOT, timeout: 110_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

type Listed = { id: string; filename: string; sha256: string; tags: string[]; [field: string]: unknown };

/** Every asset of the key's workspace, through the API. */
async function listAll(server: TestServer, key: string): Promise<Listed[]> {
  const all: Listed[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '200', ...(cursor && { cursor }) });
    const res = await server.as({ bearer: key })(`/api/v1/assets?${query}`);
    const page = (await res.json()) as { data: Listed[]; nextCursor: string | null };
    all.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

const png = (red: number) =>
  sharp({ create: { width: 3, height: 2, channels: 3, background: { r: red, g: 0, b: 0 } } })
    .png()
    .toBuffer();

async function upload(server: TestServer, key: string, bytes: Buffer, filename: string): Promise<Listed> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const res = await server.as({ bearer: key })('/api/v1/uploads', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as Listed;
}

/** What an upload and an add must agree on: everything but the asset's own id, key, times and URLs. */
const comparable = (asset: Listed) =>
  Object.fromEntries(
    Object.entries(asset).filter(([field]) => !/^(id|key|createdAt|updatedAt|tags)$|url/i.test(field)),
  );

// The data folder's own backend (files), whatever backend the run's other test servers use: `--data-dir` names it.
describe('folio add into a data folder', () => {
  it('adds nested files once each, skips held content and links out of the folder, like uploads', async () => {
    const dataDir = await temp('data');
    const folder = await temp('folder');
    const outside = await temp('outside');
    const server = await startTestServer({ ...ON_FILES, dataDir });
    const key = await server.createKey({ services: ['assets'] });
    const friendKey = await server.createKey({
      services: ['assets'],
      session: await server.signInApproved('friend@example.com'),
    });
    const picture = await png(200);
    const held = await upload(server, key, Buffer.from('already uploaded\n'), 'held.txt');
    const uploadedElsewhere = await upload(server, friendKey, picture, 'red.png');
    const { workspace } = (await (await server.as({ bearer: key })('/api/v1/me')).json()) as {
      workspace: { id: string };
    };
    await server.close();

    await mkdir(join(folder, 'a', 'b'), { recursive: true });
    await writeFile(join(folder, 'top.txt'), 'top\n');
    await writeFile(join(folder, 'a', 'same-1.txt'), 'twice\n');
    await writeFile(join(folder, 'a', 'b', 'same-2.txt'), 'twice\n');
    await writeFile(join(folder, 'a', 'b', 'red.png'), picture);
    await writeFile(join(folder, 'a', 'again.txt'), 'already uploaded\n');
    await writeFile(join(outside, 'secret.txt'), 'outside the folder\n');
    await symlink(join(outside, 'secret.txt'), join(folder, 'a', 'link-out.txt'));
    await symlink(outside, join(folder, 'dir-out'));

    const ran = await folio([
      'add',
      folder,
      '--data-dir',
      dataDir,
      '--workspace',
      workspace.id,
      '--tags',
      'x, y',
    ]);
    expect(ran).toMatchObject({ code: 0 });
    expect(ran.stdout).toMatch(/^Added 3 files/m);
    expect(ran.stdout).toMatch(/^Skipped 2 whose content the workspace already holds/m);
    expect(ran.stdout).toMatch(/Left alone: 2 symbolic links/);

    const again = await startTestServer({ ...ON_FILES, dataDir });
    cleanups.push(() => again.close());
    const assets = await listAll(again, key);
    const bySha = new Map(assets.map((asset) => [asset.sha256, asset]));
    expect(assets).toHaveLength(4);
    expect([...bySha.keys()].sort()).toEqual(
      [held.sha256, sha256('top\n'), sha256('twice\n'), sha256(picture)].sort(),
    );
    expect(bySha.get(sha256('outside the folder\n'))).toBeUndefined();
    expect(bySha.get(sha256('top\n'))).toMatchObject({ filename: 'top.txt', tags: ['x', 'y'] });
    expect(comparable(bySha.get(sha256(picture))!)).toEqual(comparable(uploadedElsewhere));
    expect(bySha.get(sha256(picture))).toMatchObject({ type: 'image', width: 3, height: 2 });
  });

  it('after a kill -9 part-way, a second run adds the rest: every file exactly once', async () => {
    const dataDir = await temp('data');
    const folder = await temp('many');
    const server = await startTestServer({ ...ON_FILES, dataDir });
    const key = await server.createKey({ services: ['assets'] });
    await server.close();
    const count = 3000;
    for (let dir = 0; dir < 30; dir++) {
      await mkdir(join(folder, `d${dir}`));
      await Promise.all(
        Array.from({ length: count / 30 }, (_, i) =>
          writeFile(join(folder, `d${dir}`, `f${i}.txt`), `file ${dir}/${i}\n`),
        ),
      );
    }

    const first: ChildProcess = spawn(process.execPath, folioArgs(['add', folder, '--data-dir', dataDir]), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const addedBeforeKill = await new Promise<number>((resolve, reject) => {
      let seen = '';
      first.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk;
        const added = Number(/(\d+) added/.exec(seen.split('\n').at(-2) ?? '')?.[1] ?? 0);
        if (added > 0) {
          first.kill('SIGKILL');
          resolve(added);
        }
      });
      first.on('exit', () => reject(new Error(`the first run ended before it was killed:\n${seen}`)));
    });
    expect(addedBeforeKill).toBeLessThan(count);

    const second = await folio(['add', folder, '--data-dir', dataDir]);
    expect(second).toMatchObject({ code: 0 });
    const skipped = Number(/^Skipped (\d+)/m.exec(second.stdout)?.[1]);
    const added = Number(/^Added (\d+)/m.exec(second.stdout)?.[1]);
    expect(skipped).toBeGreaterThanOrEqual(addedBeforeKill);
    expect(added + skipped).toBe(count);

    const again = await startTestServer({ ...ON_FILES, dataDir });
    cleanups.push(() => again.close());
    const assets = await listAll(again, key);
    expect(assets).toHaveLength(count);
    expect(new Set(assets.map((asset) => asset.sha256)).size).toBe(count);
  });
});

describe('folio add --url', () => {
  it('adds through the API at the pace the key may send, waiting out each 429', async () => {
    const folder = await temp('remote');
    const server = await startTestServer({ limits: { rateLimitPerMinute: 600, rateLimitBurst: 4 } as never });
    cleanups.push(() => server.close());
    const key = await server.createKey({ services: ['assets'] });
    await upload(server, key, Buffer.from('file 0\n'), 'first.txt');
    await mkdir(join(folder, 'sub'));
    for (let i = 0; i < 12; i++)
      await writeFile(join(folder, i % 2 ? 'sub' : '', `f${i}.txt`), `file ${i}\n`);

    const ran = await folio(['add', folder, '--url', server.url, '--key', key, '--tags', 'remote']);
    expect(ran).toMatchObject({ code: 0 });
    expect(ran.stdout).toMatch(/^Added 11 files/m);
    expect(ran.stdout).toMatch(/^Skipped 1 /m);
    const assets = await listAll(server, key);
    expect(assets).toHaveLength(12);
    expect(new Set(assets.map((asset) => asset.sha256)).size).toBe(12);
    expect(assets.filter((asset) => asset.tags.includes('remote'))).toHaveLength(11);
  });

  it('names a key that may not upload, and exits 1', async () => {
    const folder = await temp('refused');
    await writeFile(join(folder, 'one.txt'), 'one\n');
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const ran = await folio(['add', folder, '--url', server.url, '--key', 'fk_not_a_real_key']);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/401/);
  });
});
