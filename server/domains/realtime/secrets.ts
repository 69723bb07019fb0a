/**
 * Realtime client secrets: `frt_` + 32 base62 chars, stored as a SHA-256 hash only, in the store, so a secret
 * minted on one node connects on any other. Single use: the first WebSocket upgrade that presents a secret claims
 * it in one conditional write, so a second connect, even a concurrent one through another node, is refused with
 * 410. Bound to the workspace that minted it.
 */

import { gone } from '../../http/errors.js';
import { hashSecret } from '../../http/secret-hash.js';
import type { GrantInfo } from '../../http/viewer.js';
import { newId, randomBase62 } from '../../store/ids.js';
import type { Store } from '../../store/types.js';
import { realtimeSecrets } from './collections.js';

export const REALTIME_SECRET_PREFIX = 'frt_';
const SECRET = /^frt_[0-9A-Za-z]{32}$/;
/** Kept this long past expiry so a late use still reads 410 rather than 401. */
const KEEP_EXPIRED_MS = 60_000;

export function createRealtimeSecrets(store: Store, now: () => number = Date.now) {
  const secrets = store.instance(realtimeSecrets);
  const iso = (ms: number) => new Date(ms).toISOString();

  async function mint(workspaceId: string, expiresInSeconds: number) {
    const secret = `${REALTIME_SECRET_PREFIX}${randomBase62(32)}`;
    const expiresAt = iso(now() + expiresInSeconds * 1000);
    const row = {
      id: hashSecret(secret),
      sessionId: newId('rts'),
      workspaceId,
      createdAt: iso(now()),
      expiresAt,
      usedAt: null,
    };
    await secrets.insert(row);
    return { id: row.sessionId, secret, expiresAt };
  }

  /** For authenticate.ts: consumes the secret; used or expired ones answer 410, unknown ones 401. */
  async function resolve(secret: string): Promise<GrantInfo | undefined> {
    if (!SECRET.test(secret)) return undefined;
    const id = hashSecret(secret);
    const at = iso(now());
    const claimed = await secrets.update(id, { usedAt: at }, { if: { usedAt: null, expiresAt: { gt: at } } });
    if (claimed) return { id: claimed.sessionId, purpose: 'realtime', workspaceId: claimed.workspaceId };
    const row = await secrets.get(id);
    if (!row) return undefined;
    if (row.usedAt) throw gone('This realtime client secret was already used; mint a new session');
    throw gone('This realtime client secret has expired; mint a new session');
  }

  /** Forgets secrets that can no longer be used (the sweeper calls it). */
  async function sweep(): Promise<number> {
    const before = iso(now() - KEEP_EXPIRED_MS);
    let removed = 0;
    for (const row of await secrets.all({ expiresAt: { lt: before } }))
      if (await secrets.remove(row.id, { if: { expiresAt: { lt: before } } })) removed++;
    return removed;
  }

  return { mint, resolve, sweep, prefix: REALTIME_SECRET_PREFIX };
}

export type RealtimeSecrets = ReturnType<typeof createRealtimeSecrets>;
