// What the publication sync tests share: a pair that renders on a slow machine, documents of each kind, API calls
// that check their status, and a push as any client of the protocol could send it.
import { expect } from 'vitest';
import { batchKey } from '../../../../server/domains/sync/protocol/content-hash.js';
import type { PushItem, SyncKind } from '../../../../server/domains/sync/protocol/schema.js';
import type { Json, SyncPair } from '../../../helpers/sync-pair.js';
import { startSyncPair } from '../../../helpers/sync-pair.js';
import { SLOW_MACHINE } from '../publishing/render-config.js';

export const start = (options: Parameters<typeof startSyncPair>[0] = {}) =>
  startSyncPair({ ...options, desktop: SLOW_MACHINE, hosted: SLOW_MACHINE });

export const diagramSvg = (label: string) =>
  `<svg viewBox="0 0 200 60"><rect class="node" x="0" y="0" width="200" height="60" rx="8"/><text class="label" x="100" y="30">${label}</text></svg>`;

/** A push as any client of the protocol could send it, bypassing the desktop's own sync. */
export const pushDirectly = (p: Pick<SyncPair, 'hosted' | 'hostedKey'>, records: Json[]) =>
  p.hosted.as({ bearer: p.hostedKey.bearer })('/api/v1/sync/push', {
    method: 'POST',
    headers: { 'idempotency-key': batchKey(records as PushItem[]) },
    body: JSON.stringify({ records }),
  });

/** A new version (`<id>@<n>`, never seen by the server) as a push item, hashed as the sender's kinds hash it. */
export function newVersion(p: Pick<SyncPair, 'hosted'>, kind: SyncKind, id: string, record: Json): Json {
  return { kind, id, rev: 1, baseSeq: 0, sha256: p.hosted.deps.sync.kinds.hash(kind, record), record };
}

export type Api = ReturnType<SyncPair['desktop']['as']>;

export async function call(api: Api, path: string, method: string, body?: Json, expected = [200, 201]) {
  const res = await api(path, { method, ...(body && { body: JSON.stringify(body) }) });
  const text = await res.text();
  expect(expected, `${method} ${path}: ${text}`).toContain(res.status);
  return JSON.parse(text || '{}') as Json;
}

export async function openConflicts(p: SyncPair, status = 'open') {
  return (await call(p.desktop.as(p.desktop.owner), `/api/v1/sync/conflicts?status=${status}`, 'GET'))
    .data as Json[];
}
