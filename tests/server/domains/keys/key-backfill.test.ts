// Migration 001: keys stored before services existed get assets and transcription, once; others stay as they are.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mintSecret } from '../../../../server/domains/keys/secret.js';
import type { ServiceName } from '../../../../server/http/viewer.js';
import { hostedTests } from '../../../helpers/hosted/backend.js';
import { startTestServer } from '../../../helpers/server.js';

describe('backfill of keys created before services existed', () => {
  // Seeds the file backend's files as an older Folio wrote them; a hosted database never held that shape.
  it.skipIf(hostedTests)(
    'gives a key stored without services exactly assets and transcription, once, and records the schema version',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'folio-backfill-'));
      const { secret, prefix, hash } = mintSecret();
      const at = '2025-01-01T00:00:00.000Z';
      const workspace = {
        id: 'ws_OLDOLDOLDOLDOLDOLD01',
        name: 'Old',
        ownerId: 'usr_OLDOLDOLDOLDOLDOLD01',
        personal: true,
        createdAt: at,
        updatedAt: at,
      };
      const key = {
        id: 'key_OLDOLDOLDOLDOLDOLD01',
        workspaceId: workspace.id,
        name: 'legacy',
        prefix,
        hash,
        createdAt: at,
        updatedAt: at,
        lastUsedAt: null,
      };
      await mkdir(join(dataDir, 'instance'), { recursive: true });
      const user = {
        id: workspace.ownerId,
        email: 'old@example.com',
        name: 'old',
        createdAt: at,
        updatedAt: at,
      };
      await writeFile(join(dataDir, 'instance', 'users.json'), JSON.stringify({ rows: [user] }));
      await writeFile(join(dataDir, 'instance', 'workspaces.json'), JSON.stringify({ rows: [workspace] }));
      await writeFile(join(dataDir, 'instance', 'api-keys.json'), JSON.stringify({ rows: [key] }));
      try {
        for (let start = 0; start < 2; start++) {
          const legacy = await startTestServer({ dataDir });
          try {
            const me = await legacy.as({ bearer: secret })('/api/v1/me');
            expect(me.status).toBe(200);
            const body = (await me.json()) as { key: { services: ServiceName[] }; workspace: { id: string } };
            expect(body.workspace.id).toBe(workspace.id);
            expect([...body.key.services].sort()).toEqual(['assets', 'transcription']);
            expect((await legacy.as({ bearer: secret })('/api/v1/assets')).status).toBe(200);
          } finally {
            await legacy.close();
          }
        }
        expect(
          JSON.parse(await readFile(join(dataDir, 'meta.json'), 'utf8')).schemaVersion,
        ).toBeGreaterThanOrEqual(1);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('leaves a key that already has services (even none) as it is', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-backfill-'));
    const first = await startTestServer({ dataDir });
    const bearer = await first.createKey({ services: [] });
    await first.close();
    const again = await startTestServer({ dataDir });
    try {
      const body = (await (await again.as({ bearer })('/api/v1/me')).json()) as {
        key: { services: string[] };
      };
      expect(body.key.services).toEqual([]);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
