// Folio for the bench, in its own process:
// `node --import tsx bench/lib/folio-child.ts <dataDir> <fsync 0|1> <seedKeys> [seedAssets]`.
// Seeds `seedKeys` API-key records (about 300 B each, like json-server's) and `seedAssets` asset records (as an
// upload stores them, without bytes: a list never reads them) in the owner's workspace through the store, restarts
// on the same data dir (so the run starts from snapshot + journal as after any restart), and prints one JSON line:
// { url, cookie, key, keyIds }. With FOLIO_CPU_PROFILE=<file> it profiles its thread from then on and writes the
// V8 CPU profile there on SIGTERM (seeding stays out of the profile).

import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createServer } from '../../server/app.js';
import { newAssetKey } from '../../server/domains/assets/asset-key.js';
import { assetsCollection, searchTextOf } from '../../server/domains/assets/collections.js';
import { apiKeys } from '../../server/domains/keys/collections.js';
import { mintSecret } from '../../server/domains/keys/secret.js';
import { benchAssetRow } from './asset-row.js';

const [dataDir, fsyncArg, seedArg, assetsArg] = process.argv.slice(2);
const fsync = fsyncArg === '1';
const seed = Number(seedArg ?? 0);
const seedAssets = Number(assetsArg ?? 0);
const limits = {
  jsonBytes: 1 << 20,
  uploadBytes: 1 << 20,
  transcribeBytes: 1 << 20,
  rateLimitPerMinute: 1e9,
  rateLimitBurst: 1e9,
};
const config = { port: 0, dataDir, fsync, limits, quiet: true };
const quiet = () => {};

async function signInOwner(server: Awaited<ReturnType<typeof createServer>>, url: string): Promise<string> {
  const link = await server.deps.identity.mintSignInLink(server.config.ownerEmail, url);
  const res = await fetch(link, { redirect: 'manual' });
  return res.headers.getSetCookie()[0].split(';')[0];
}

let server = await createServer(config, quiet);
let { url } = await server.listen();
const cookie = await signInOwner(server, url);
const me = (await (await fetch(`${url}/api/v1/me`, { headers: { cookie } })).json()) as {
  workspace: { id: string };
};
const keys = server.deps.store.instance(apiKeys);
const keyIds: string[] = [];
const at = new Date().toISOString();
for (let start = 0; start < seed; start += 1000) {
  const batch = Array.from({ length: Math.min(1000, seed - start) }, (_, j) => {
    const { prefix, hash } = mintSecret();
    const id = `key_seed${String(start + j).padStart(15, '0')}`;
    if (keyIds.length < 1000) keyIds.push(id);
    return keys.insert({
      id,
      workspaceId: me.workspace.id,
      name: `seeded key ${start + j}`,
      services: ['assets', 'transcription'],
      prefix,
      hash,
      createdAt: at,
      updatedAt: at,
      lastUsedAt: null,
    });
  });
  await Promise.all(batch);
}
const assets = server.deps.store.collection(assetsCollection, me.workspace.id);
for (let start = 0; start < seedAssets; start += 1000) {
  const batch = Array.from({ length: Math.min(1000, seedAssets - start) }, (_, j) =>
    assets.insert(benchAssetRow(start + j, { key: () => newAssetKey(), searchTextOf })),
  );
  await Promise.all(batch);
}
await server.close();
server = await createServer(config, quiet);
({ url } = await server.listen());
const res = await fetch(`${url}/api/v1/api-keys`, {
  method: 'POST',
  headers: { cookie, origin: url, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench', services: ['assets'] }),
});
const { secret } = (await res.json()) as { secret: string };
const profilePath = process.env.FOLIO_CPU_PROFILE;
const inspector = profilePath ? new Session() : undefined;
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
}
console.log(JSON.stringify({ url, cookie, key: secret, keyIds }));
process.on('SIGTERM', async () => {
  if (inspector && profilePath)
    await writeFile(profilePath, JSON.stringify((await inspector.post('Profiler.stop')).profile));
  await server.close();
  process.exit(0);
});
