// One valid sync record of every kind a service syncs, pushed as any client of the protocol could push it
// (docs/sync.md): what service-capabilities.test.ts pushes with and without the kind's service.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { batchKey } from '../../../server/domains/sync/protocol/content-hash.js';
import type { SyncKind } from '../../../server/domains/sync/protocol/schema.js';
import type { ServiceName } from '../../../server/http/viewer.js';
import type { TestServer } from '../../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: push results are checked field by field
type Json = Record<string, any>;
export type PushRecord = {
  kind: SyncKind;
  id: string;
  rev: number;
  baseSeq: number;
  sha256: string;
  record?: Json;
};

const at = '2026-05-01T10:00:00.000Z';
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The kinds a service syncs, in the order the server writes them. */
export const kindsOf = (srv: TestServer, service: ServiceName): SyncKind[] =>
  srv.deps.sync.kinds.list.filter((k) => k.service === service).map((k) => k.kind);

/** A push of `records`, with the Idempotency-Key derived from them; answers each record's result. */
export async function pushAs(srv: TestServer, bearer: string, records: PushRecord[]): Promise<Json[]> {
  const res = await srv.as({ bearer })('/api/v1/sync/push', {
    method: 'POST',
    headers: { 'idempotency-key': batchKey(records) },
    body: JSON.stringify({ records }),
  });
  const body = (await res.json()) as Json;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.results;
}

/** A new record of each of the service's kinds (a publication's version before its item), never seen before. */
export async function recordsOf(
  srv: TestServer,
  bearer: string,
  service: ServiceName,
): Promise<PushRecord[]> {
  const tag = randomBytes(6).toString('hex');
  const out: PushRecord[] = [];
  for (const kind of kindsOf(srv, service)) {
    const [id, record] = await recordOf(srv, bearer, kind, tag);
    out.push({ kind, id, rev: 1, baseSeq: 0, sha256: srv.deps.sync.kinds.hash(kind, record), record });
  }
  return out;
}

/** A new version (`<id>@1`, never seen before) of a chart or an artifact holding `document`. */
export function versionOf(
  srv: TestServer,
  kind: 'chart-version' | 'artifact-version',
  document: Json,
): PushRecord {
  const id = `${kind === 'chart-version' ? 'cha' : 'art'}_${randomBytes(6).toString('hex')}@1`;
  const record = { title: `Synced ${kind}`, tags: [], createdAt: at, document };
  return { kind, id, rev: 1, baseSeq: 0, sha256: srv.deps.sync.kinds.hash(kind, record), record };
}

async function recordOf(
  srv: TestServer,
  bearer: string,
  kind: SyncKind,
  tag: string,
): Promise<[string, Json]> {
  const version = { title: `Synced ${kind}`, tags: [], createdAt: at };
  const item = { slug: `synced-${kind}-${tag}`, archived: false, createdAt: at, updatedAt: at };
  switch (kind) {
    case 'asset':
      return [`ast_${tag}`, await assetRecord(srv, bearer, Buffer.from(`notes ${tag}\n`))];
    case 'transcript':
      return [`trn_${tag}`, { ...TRANSCRIPT, audioAssetId: `ast_${tag}` }];
    case 'diagram-version':
      return [`dia_${tag}@1`, { ...version, document: DIAGRAM }];
    case 'chart-version':
      return [`cha_${tag}@1`, { ...version, document: CHART }];
    case 'artifact-version':
      return [`art_${tag}@1`, { ...version, document: ARTIFACT }];
    case 'diagram':
      return [`dia_${tag}`, item];
    case 'chart':
      return [`cha_${tag}`, item];
    case 'artifact':
      return [`art_${tag}`, item];
  }
}

const DIAGRAM =
  '<svg viewBox="0 0 200 60"><rect class="node" x="0" y="0" width="200" height="60" rx="8"/><text class="label" x="100" y="30">synced</text></svg>';
const CHART = {
  data: { values: [{ q: 'a', r: 3 }] },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
};
const TRANSCRIPT = {
  status: 'completed',
  progress: 100,
  source: 'transcribe',
  text: 'hello',
  createdAt: at,
  updatedAt: at,
  completedAt: at,
};
const ARTIFACT = { children: [{ type: 'heading', text: 'Synced', level: 1 }] };

/** An asset record whose bytes went up first in a pack (begin, one part, complete), as a desktop sends them. */
async function assetRecord(srv: TestServer, bearer: string, bytes: Buffer): Promise<Json> {
  const api = srv.as({ bearer });
  const blob = { sha256: sha(bytes), size: bytes.length };
  const begun = await api('/api/v1/sync/packs', { method: 'POST', body: JSON.stringify({ blobs: [blob] }) });
  expect(begun.status).toBe(201);
  const { uploadId } = (await begun.json()) as Json;
  const part = await api(`/api/v1/sync/packs/${uploadId}/parts/0`, {
    method: 'PUT',
    body: new Uint8Array(bytes),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(part.status).toBe(200);
  expect((await api(`/api/v1/sync/packs/${uploadId}/complete`, { method: 'POST' })).status).toBe(200);
  return {
    displayName: 'notes.txt',
    filename: 'notes.txt',
    tags: [],
    type: 'document',
    contentType: 'text/plain; charset=utf-8',
    ...blob,
    createdAt: at,
    updatedAt: at,
  };
}
