// A library of `count` assets for the start and compaction bench, seeded through the store, not over HTTP:
// `node --import tsx bench/lib/seed-library.ts <tree> <dataDir> <count>` makes the owner, a workspace and an assets
// key through a real server of `tree` (a checkout: this one, or an older commit's worktree, so the data folder is
// in that version's own format), then writes `count` asset records (as an upload stores them) and a small file for
// each, closes the store, and prints one JSON line: { key, workspaceId }.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { benchAssetRow } from './asset-row.js';

const [tree, dataDir, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 0);
const { createServer } = (await import(join(tree, 'server/app.ts'))) as typeof import('../../server/app.js');
const { newAssetKey } = (await import(
  join(tree, 'server/domains/assets/asset-key.ts')
)) as typeof import('../../server/domains/assets/asset-key.js');
const { assetsCollection, searchTextOf } = (await import(
  join(tree, 'server/domains/assets/collections.ts')
)) as typeof import('../../server/domains/assets/collections.js');
const limits = { rateLimitPerMinute: 1e9, rateLimitBurst: 1e9 };
const server = await createServer({ port: 0, dataDir, fsync: false, limits }, () => {});
const { url } = await server.listen();
// What the app built is `deps`, named `services` in older versions (a `--before` tree).
const deps = server.deps ?? (server as unknown as { services: typeof server.deps }).services;
const link = await deps.identity.mintSignInLink(server.config.ownerEmail, url, {
  announce: false,
});
const cookie = (await fetch(link, { redirect: 'manual' })).headers.getSetCookie()[0].split(';')[0];
const me = (await (await fetch(`${url}/api/v1/me`, { headers: { cookie } })).json()) as {
  workspace: { id: string };
};
const made = await fetch(`${url}/api/v1/api-keys`, {
  method: 'POST',
  headers: { cookie, origin: url, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench', services: ['assets'] }),
});
const { secret } = (await made.json()) as { secret: string };

const workspaceId = me.workspace.id;
const assets = deps.store.collection(assetsCollection, workspaceId);
const filesDir = join(dataDir, 'workspaces', workspaceId, 'files');
await mkdir(filesDir, { recursive: true });
for (let start = 0; start < count; start += 1000) {
  const batch = Array.from({ length: Math.min(1000, count - start) }, async (_, j) => {
    const row = benchAssetRow(start + j, { key: () => newAssetKey(), searchTextOf });
    await writeFile(join(filesDir, row.id), `bytes of ${start + j}`);
    await assets.insert(row);
  });
  await Promise.all(batch);
}
await server.close();
console.log(JSON.stringify({ key: secret, workspaceId }));
