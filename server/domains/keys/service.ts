/** API keys: bound to one workspace, scoped to services, secret shown once and stored as a hash. */
import { notFound } from '../../http/errors.js';
import { hashSecret } from '../../http/secret-hash.js';
import type { ServiceName, Viewer } from '../../http/viewer.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/types.js';
import { apiKeys } from './collections.js';
import type { ApiKey, ApiKeyRow } from './schema.js';
import { isWellFormed, mintSecret, sameHash } from './secret.js';

const LAST_USED_RESOLUTION_MS = 60_000;

export function createKeyService({ store }: { store: Store }) {
  const keys = store.instance(apiKeys);
  const now = () => new Date().toISOString();
  const toPublic = ({ hash: _hash, ...key }: ApiKeyRow): ApiKey => key;

  async function create(workspaceId: string, input: { name: string; services: ServiceName[] }) {
    const { secret, prefix, hash } = mintSecret();
    const at = now();
    const row = await keys.insert({
      id: newId('key'),
      workspaceId,
      name: input.name,
      services: input.services,
      prefix,
      hash,
      createdAt: at,
      updatedAt: at,
      lastUsedAt: null,
    });
    return { ...toPublic(row), secret };
  }

  async function inWorkspace(workspaceId: string, id: string): Promise<ApiKeyRow> {
    const key = await keys.get(id);
    if (!key || key.workspaceId !== workspaceId) throw notFound('API key');
    return key;
  }

  async function update(workspaceId: string, id: string, patch: { name?: string; services?: ServiceName[] }) {
    await inWorkspace(workspaceId, id);
    const updated = await keys.update(id, { ...patch, updatedAt: now() }, { if: { workspaceId } });
    if (!updated) throw notFound('API key');
    return toPublic(updated);
  }

  async function revoke(workspaceId: string, id: string): Promise<void> {
    if (!(await keys.remove(id, { if: { workspaceId } }))) throw notFound('API key');
  }

  /** Looks the key up by its SHA-256 hash (a unique field), then compares the hashes in constant time. */
  async function resolve(secret: string): Promise<Extract<Viewer, { kind: 'key' }> | undefined> {
    if (!isWellFormed(secret)) return undefined;
    const presented = hashSecret(secret);
    const key = (await store.lookup(apiKeys, 'hash', presented))?.row;
    if (!key || !sameHash(key.hash, presented)) return undefined;
    touch(key);
    return { kind: 'key', keyId: key.id, workspaceId: key.workspaceId, services: key.services };
  }

  function touch(key: ApiKeyRow): void {
    if (key.lastUsedAt && Date.now() - Date.parse(key.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
    keys.update(key.id, { lastUsedAt: now() }).catch(() => {});
  }

  return {
    create,
    update,
    revoke,
    resolve,
    list: async (workspaceId: string) =>
      (await keys.all({ workspaceId }, { orderBy: [['createdAt', 'desc']] })).map(toPublic),
    describe: async (id: string) => {
      const key = await keys.get(id);
      return key && { id: key.id, name: key.name, prefix: key.prefix, services: key.services };
    },
    dropWorkspace: async (workspaceId: string) => {
      for (const key of await keys.all({ workspaceId })) await keys.remove(key.id);
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
