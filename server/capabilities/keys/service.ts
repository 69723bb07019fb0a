/** API keys: bound to one workspace, scoped to services, secret shown once and stored as a hash. */
import { notFound } from '../../http/errors.js';
import type { ServiceName, Viewer } from '../../http/viewer.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { ApiKey, ApiKeyRow } from './schema.js';
import { displayPrefix, hashSecret, isWellFormed, mintSecret, sameHash } from './secret.js';

const LAST_USED_RESOLUTION_MS = 60_000;

export function createKeyService({ store }: { store: Store }) {
  const keys = store.instance<ApiKeyRow>('api-keys');
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
      hash: hash.toString('hex'),
      createdAt: at,
      updatedAt: at,
      lastUsedAt: null,
    });
    return { ...toPublic(row), secret };
  }

  function inWorkspace(workspaceId: string, id: string): ApiKeyRow {
    const key = keys.find(id);
    if (!key || key.workspaceId !== workspaceId) throw notFound('API key');
    return key;
  }

  async function update(workspaceId: string, id: string, patch: { name?: string; services?: ServiceName[] }) {
    inWorkspace(workspaceId, id);
    return toPublic((await keys.update(id, { ...patch, updatedAt: now() }))!);
  }

  async function revoke(workspaceId: string, id: string): Promise<void> {
    inWorkspace(workspaceId, id);
    await keys.remove(id);
  }

  /** Looks the key up by its displayed prefix, then compares SHA-256 hashes in constant time. */
  function resolve(secret: string): Extract<Viewer, { kind: 'key' }> | undefined {
    if (!isWellFormed(secret)) return undefined;
    const presented = hashSecret(secret);
    const prefix = displayPrefix(secret);
    const key = keys.filter((k) => k.prefix === prefix).find((k) => sameHash(Buffer.from(k.hash, 'hex'), presented));
    if (!key) return undefined;
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
    list: (workspaceId: string) => keys.filter((k) => k.workspaceId === workspaceId).reverse().map(toPublic),
    describe: (id: string) => {
      const key = keys.find(id);
      return key && { id: key.id, name: key.name, prefix: key.prefix, services: key.services };
    },
    dropWorkspace: async (workspaceId: string) => {
      for (const key of keys.filter((k) => k.workspaceId === workspaceId)) await keys.remove(key.id);
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
