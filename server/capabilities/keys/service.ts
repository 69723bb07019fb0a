/** API keys: bound to one workspace, scoped to services, secret shown once and stored as a hash. */
import { notFound } from '../../http/errors.js';
import type { ServiceName, Viewer } from '../../http/viewer.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { ApiKey, ApiKeyRow } from './schema.js';
import { hashSecret, isWellFormed, mintSecret, sameHash } from './secret.js';

const LAST_USED_RESOLUTION_MS = 60_000;

export function createKeyService({ store }: { store: Store }) {
  const keys = store.instance<ApiKeyRow>('api-keys');
  const now = () => new Date().toISOString();
  const toPublic = ({ hash: _hash, ...key }: ApiKeyRow): ApiKey => key;
  // Every keyed request resolves its key: an index by hash keeps that O(1) (a scan by prefix cost O(all keys)).
  const byHash = new Map(keys.all().map((k) => [k.hash, k.id]));

  async function create(workspaceId: string, input: { name: string; services: ServiceName[] }) {
    const { secret, prefix, hash } = mintSecret();
    const id = newId('key');
    const at = now();
    byHash.set(hash.toString('hex'), id);
    const row = await keys.insert({
      id,
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
    await forget(inWorkspace(workspaceId, id));
  }

  async function forget(key: ApiKeyRow): Promise<void> {
    byHash.delete(key.hash);
    await keys.remove(key.id);
  }

  /** Looks the key up by its SHA-256 hash, then compares the hashes in constant time. */
  function resolve(secret: string): Extract<Viewer, { kind: 'key' }> | undefined {
    if (!isWellFormed(secret)) return undefined;
    const presented = hashSecret(secret);
    const id = byHash.get(presented.toString('hex'));
    const key = id === undefined ? undefined : keys.find(id);
    if (!key || !sameHash(Buffer.from(key.hash, 'hex'), presented)) return undefined;
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
    list: (workspaceId: string) =>
      keys
        .filter((k) => k.workspaceId === workspaceId)
        .reverse()
        .map(toPublic),
    describe: (id: string) => {
      const key = keys.find(id);
      return key && { id: key.id, name: key.name, prefix: key.prefix, services: key.services };
    },
    dropWorkspace: async (workspaceId: string) => {
      for (const key of keys.filter((k) => k.workspaceId === workspaceId)) await forget(key);
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
