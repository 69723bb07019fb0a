/**
 * Client-upload grants (DESIGN §3 Grants): `fg_` + 32 base62 chars, stored as a SHA-256 hash only.
 * Single use even under races: a grant is *claimed* synchronously in memory before any byte is read, so a
 * concurrent attempt sees it taken (410). A claim is released again if the upload fails without creating an asset
 * (too large, wrong type, aborted), so the same browser can retry within the lifetime; it is consumed only
 * when an asset exists. So "single use" means: at most one asset per grant.
 */
import { createHash } from 'node:crypto';
import { gone, unauthorized } from '../../http/errors.js';
import type { GrantInfo } from '../../http/viewer.js';
import { newId, randomBase62 } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { MintGrantBody, UploadGrantRecord } from './schema.js';

export const GRANT_PREFIX = 'fg_';
const COLLECTION = 'upload-grants';
const GRANT_SECRET = /^fg_[0-9A-Za-z]{32}$/;

export interface GrantClaim {
  grant: UploadGrantRecord;
  consume(assetId: string): Promise<void>;
  release(): void;
}

export function createUploadGrants(store: Store, now: () => number = () => Date.now()) {
  const byHash = new Map<string, { workspaceId: string; id: string }>();
  const claimed = new Set<string>();
  for (const workspaceId of store.scopes(COLLECTION)) {
    for (const g of grants(workspaceId).all()) byHash.set(g.hash, { workspaceId, id: g.id });
  }

  function grants(workspaceId: string) {
    return store.collection<UploadGrantRecord>(COLLECTION, workspaceId);
  }

  /** Mints a grant; the secret is returned once and only its hash is kept. */
  async function mint(workspaceId: string, keyId: string | undefined, body: MintGrantBody) {
    const secret = `${GRANT_PREFIX}${randomBase62(32)}`;
    const createdAt = now();
    const record: UploadGrantRecord = {
      id: newId('grt'),
      hash: hashSecret(secret),
      workspaceId,
      keyId,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + body.expiresIn * 1000).toISOString(),
      maxBytes: body.maxBytes,
      allowedTypes: body.allowedTypes,
      displayName: body.displayName,
      tags: body.tags,
    };
    await grants(workspaceId).insert(record);
    byHash.set(record.hash, { workspaceId, id: record.id });
    return { secret, record };
  }

  function find(secret: string): UploadGrantRecord | undefined {
    if (!GRANT_SECRET.test(secret)) return undefined;
    const ref = byHash.get(hashSecret(secret));
    return ref && grants(ref.workspaceId).find(ref.id);
  }

  /** For authenticate.ts: any known grant identifies (so a used one can answer 410, not 401). */
  function resolve(secret: string): GrantInfo | undefined {
    const grant = find(secret);
    return grant && { id: grant.id, purpose: 'upload', workspaceId: grant.workspaceId };
  }

  /** Synchronous check-and-set: the atomic step that makes a grant single-use under concurrency. */
  function claim(secret: string | undefined): GrantClaim {
    const grant = secret ? find(secret) : undefined;
    if (!grant)
      throw unauthorized(
        'Send a valid upload grant as `Authorization: Bearer fg_...` or a form field "grant" before the file',
      );
    if (grant.usedAt || claimed.has(grant.id)) throw gone('This upload grant was already used');
    if (Date.parse(grant.expiresAt) <= now()) throw gone('This upload grant has expired');
    claimed.add(grant.id);
    return {
      grant,
      release: () => claimed.delete(grant.id),
      consume: async (assetId) => {
        await grants(grant.workspaceId).update(grant.id, { usedAt: new Date(now()).toISOString(), assetId });
      },
    };
  }

  return { mint, resolve, claim, prefix: GRANT_PREFIX };
}

export type UploadGrants = ReturnType<typeof createUploadGrants>;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
