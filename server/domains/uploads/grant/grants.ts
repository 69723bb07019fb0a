/**
 * Client-upload grants: `fg_` + 32 base62 chars, stored as a SHA-256 hash only. Single use even under races: a
 * grant is *claimed* by one conditional write before any byte is read, so a concurrent attempt finds it taken
 * (410). A claim is released if the upload fails without creating an asset (too large, wrong type, aborted), so the
 * same browser may retry within the lifetime; it is consumed in the unit of work that makes the asset, so an asset
 * never exists beside an unused grant. "Single use" means at most one asset per grant. Expired grants are swept.
 */

import { gone, unauthorized } from '../../../http/errors.js';
import { hashSecret } from '../../../http/secret-hash.js';
import type { GrantInfo } from '../../../http/viewer.js';
import { newId, randomBase62 } from '../../../store/ids.js';
import type { Store, UnitOfWork } from '../../../store/types.js';
import type { MintGrantBody, UploadGrantRecord } from '../../assets/schema.js';
import { uploadGrants } from './collections.js';

export const GRANT_PREFIX = 'fg_';
const GRANT_SECRET = /^fg_[0-9A-Za-z]{32}$/;
/** A claim older than this belongs to an upload that died with its server; the grant may be claimed again. */
const STALE_CLAIM_MS = 6 * 3600_000;

export interface GrantClaim {
  grant: UploadGrantRecord;
  /** Marks the grant used by `assetId`, in `tx` where the asset is being made. */
  consume(assetId: string, tx?: UnitOfWork): Promise<void>;
  release(): Promise<void>;
}

export function createUploadGrants(store: Store, now: () => number = () => Date.now()) {
  const grants = (workspaceId: string) => store.collection(uploadGrants, workspaceId);
  const iso = (ms = now()) => new Date(ms).toISOString();

  /** Mints a grant; the secret is returned once and only its hash is kept. */
  async function mint(workspaceId: string, keyId: string | undefined, body: MintGrantBody) {
    const secret = `${GRANT_PREFIX}${randomBase62(32)}`;
    const createdAt = now();
    const record: UploadGrantRecord = {
      id: newId('grt'),
      hash: hashSecret(secret),
      workspaceId,
      keyId,
      createdAt: iso(createdAt),
      expiresAt: iso(createdAt + body.expiresIn * 1000),
      maxBytes: body.maxBytes,
      allowedTypes: body.allowedTypes,
      displayName: body.displayName,
      tags: body.tags,
      claimedAt: null,
      usedAt: null,
    };
    await grants(workspaceId).insert(record);
    return { secret, record };
  }

  async function find(secret: string): Promise<UploadGrantRecord | undefined> {
    if (!GRANT_SECRET.test(secret)) return undefined;
    return (await store.lookup(uploadGrants, 'hash', hashSecret(secret)))?.row;
  }

  /** For authenticate.ts: any known grant identifies (so a used one can answer 410, not 401). */
  async function resolve(secret: string): Promise<GrantInfo | undefined> {
    const grant = await find(secret);
    return grant && { id: grant.id, purpose: 'upload', workspaceId: grant.workspaceId };
  }

  /** One conditional write: of any number of racing claims, exactly one holds the grant. */
  async function claim(secret: string | undefined): Promise<GrantClaim> {
    const grant = secret ? await find(secret) : undefined;
    if (!grant)
      throw unauthorized(
        'Send a valid upload grant as `Authorization: Bearer fg_...` or a form field "grant" before the file',
      );
    if (grant.usedAt) throw gone('This upload grant was already used');
    if (Date.parse(grant.expiresAt) <= now()) throw gone('This upload grant has expired');
    if (grant.claimedAt && now() - Date.parse(grant.claimedAt) < STALE_CLAIM_MS)
      throw gone('This upload grant was already used');
    const rows = grants(grant.workspaceId);
    const claimedAt = iso();
    // Compare-and-set on the claim we saw: a racing claim changed it, so only one of them writes.
    const claimed = await rows.update(
      grant.id,
      { claimedAt },
      { if: { usedAt: null, claimedAt: grant.claimedAt ?? null } },
    );
    if (!claimed) throw gone('This upload grant was already used');
    return {
      grant: claimed,
      release: async () => {
        await rows.update(grant.id, { claimedAt: null }, { if: { claimedAt } });
      },
      consume: async (assetId, tx) => {
        const target = tx ? tx.collection(uploadGrants) : rows;
        await target.update(grant.id, { usedAt: iso(), assetId }, { if: { claimedAt } });
      },
    };
  }

  /** Removes grants that expired more than an hour ago (used ones keep their asset; the grant is no longer needed). */
  async function sweep(): Promise<number> {
    const before = iso(now() - 3600_000);
    let swept = 0;
    for (const workspaceId of await store.workspacesWith(uploadGrants)) {
      for (const grant of await grants(workspaceId).all({ expiresAt: { lt: before } })) {
        if (await grants(workspaceId).remove(grant.id, { if: { expiresAt: grant.expiresAt } })) swept++;
      }
    }
    return swept;
  }

  return { mint, resolve, claim, sweep, prefix: GRANT_PREFIX };
}

export type UploadGrants = ReturnType<typeof createUploadGrants>;
