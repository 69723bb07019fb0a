// A configured server in a child process, driven over HTTP only: for behaviour that depends on the server
// and the client not sharing one event loop (early answers while the client is still sending).
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '../../server/config.js';
import type { ServiceName } from '../../server/http/viewer.js';
import { childCpuProfileDir, spawnServer } from './child-server.js';

export type ChildTestServer = Awaited<ReturnType<typeof startChildTestServer>>;

/** `user`: run the server as that user, owning its data directory. */
export async function startChildTestServer(
  config: Partial<ConfigInput> = {},
  { user }: { user?: { uid: number; gid: number } } = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-child-'));
  if (user) await chown(dataDir, user.uid, user.gid);
  const child = await spawnServer([JSON.stringify({ port: 0, dataDir, fsync: false, ...config })], {
    entry: 'tests/helpers/serve-config.ts',
    user,
  });
  const { url } = child;
  const signIn = await fetch(child.ownerLink, { redirect: 'manual' });
  const setCookie = signIn.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
  if (!setCookie) throw new Error(`owner sign-in set no cookie (${signIn.status})`);
  const owner = { cookie: setCookie.split(';')[0] };
  const { cookie } = owner;

  async function createKey(services: ServiceName[]): Promise<string> {
    const res = await fetch(`${url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { cookie, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `test ${services.join('+') || 'none'}`, services }),
    });
    if (res.status !== 201) throw new Error(`createKey: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { secret: string }).secret;
  }

  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    owner,
    lines: child.lines,
    createKey,
    async close() {
      await child.kill(childCpuProfileDir() ? 'SIGTERM' : 'SIGKILL'); // a profile is written on a clean exit
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
