// A key that has been calling in a tight loop (so whatever resolving it remembers is warm) answers a revoke or a
// change of its services on the very next request: on one server, and on a second node of a hosted instance
// that did not make the change.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../helpers/hosted/services.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const srv = await startTestServer(...args);
  cleanups.push(() => srv.close());
  return srv;
}

/** `changer` revokes and re-scopes keys; `caller` is where the key calls from. */
async function expectChangesAtOnce(changer: TestServer, caller: TestServer) {
  const owner = changer.as(changer.owner);
  const warm = async (secret: string, path: string) => {
    for (let i = 0; i < 20; i++) expect((await caller.as({ bearer: secret })(path)).status).toBe(200);
  };

  const narrowed = await changer.createKeyDetails({ services: ['assets', 'transcription'] });
  await warm(narrowed.bearer, '/api/v1/transcripts');
  const patch = await owner(`/api/v1/api-keys/${narrowed.id}`, {
    method: 'PATCH',
    body: JSON.stringify({ services: ['assets'] }),
  });
  expect(patch.status).toBe(200);
  const refused = await caller.as({ bearer: narrowed.bearer })('/api/v1/transcripts');
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toMatch(/transcription/);
  const me = await caller.as({ bearer: narrowed.bearer })('/api/v1/me');
  expect(((await me.json()) as { key: { services: string[] } }).key.services).toEqual(['assets']);

  const revoked = await changer.createKeyDetails({ services: ['assets'] });
  await warm(revoked.bearer, '/api/v1/assets');
  expect((await owner(`/api/v1/api-keys/${revoked.id}`, { method: 'DELETE' })).status).toBe(204);
  for (const path of ['/api/v1/assets', '/api/v1/me'])
    expect((await caller.as({ bearer: revoked.bearer })(path)).status).toBe(401);
}

describe('a key changed while it is in use', () => {
  it('is refused on its next request after a revoke, and held to its new services at once', async () => {
    const srv = await started();
    await expectChangesAtOnce(srv, srv);
  });

  it('on a hosted instance, counts on the other node at once too', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-key-nodes-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const node = (nodeId: string) =>
      started({ dataDir, database: { url: database.url, poolSize: 4 }, nodeId });
    const nodeA = await node('node-a');
    const nodeB = await node('node-b');
    await expectChangesAtOnce(nodeA, nodeB);
  });
});
