/**
 * Realtime client secrets: `frt_` + 32 base62 chars, in memory only (they live seconds to minutes), hashed.
 * Single use: the first WebSocket upgrade that presents a secret consumes it, synchronously, so a second
 * connect — even a concurrent one — is refused with 410. Bound to the workspace that minted it.
 */
import { createHash } from 'node:crypto';
import { gone } from '../../../http/errors.js';
import type { GrantInfo } from '../../../http/viewer.js';
import { newId, randomBase62 } from '../../../store/ids.js';

export const REALTIME_SECRET_PREFIX = 'frt_';
const SECRET = /^frt_[0-9A-Za-z]{32}$/;

type Minted = { id: string; workspaceId: string; expiresAt: number; used: boolean };

export function createRealtimeSecrets(now: () => number = Date.now) {
  const byHash = new Map<string, Minted>();

  function mint(workspaceId: string, expiresInSeconds: number) {
    prune();
    const secret = `${REALTIME_SECRET_PREFIX}${randomBase62(32)}`;
    const minted: Minted = {
      id: newId('rts'),
      workspaceId,
      expiresAt: now() + expiresInSeconds * 1000,
      used: false,
    };
    byHash.set(hash(secret), minted);
    return { id: minted.id, secret, expiresAt: new Date(minted.expiresAt).toISOString() };
  }

  /** For authenticate.ts: consumes the secret; used or expired ones answer 410, unknown ones 401. */
  async function resolve(secret: string): Promise<GrantInfo | undefined> {
    if (!SECRET.test(secret)) return undefined;
    const minted = byHash.get(hash(secret));
    if (!minted) return undefined;
    if (minted.used) throw gone('This realtime client secret was already used; mint a new session');
    if (minted.expiresAt <= now()) throw gone('This realtime client secret has expired; mint a new session');
    minted.used = true;
    return { id: minted.id, purpose: 'realtime', workspaceId: minted.workspaceId };
  }

  /** Forgets secrets that can no longer be used (kept a minute past expiry so a late use still reads 410). */
  function prune(): void {
    for (const [key, minted] of byHash) if (minted.expiresAt + 60_000 <= now()) byHash.delete(key);
  }

  return { mint, resolve, prefix: REALTIME_SECRET_PREFIX };
}

export type RealtimeSecrets = ReturnType<typeof createRealtimeSecrets>;

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
