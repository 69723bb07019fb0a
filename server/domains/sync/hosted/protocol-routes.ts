/**
 * The sync protocol (docs/sync.md), served by any Folio a desktop syncs to. A key acts on its own workspace and
 * syncs the kinds its services cover; the rest is reported as skipped, never refused as a whole.
 */

import { defineRawRoute, defineRoute } from '../../../deps.js';
import { forbiddenService } from '../../../http/errors.js';
import { SERVICE_NAMES, type Viewer } from '../../../http/viewer.js';
import {
  BeginPackBody,
  BlobParams,
  ChangesPage,
  ChangesQuery,
  CompletedPack,
  FetchBlobsBody,
  Pack,
  PackParams,
  PackPartParams,
  PackStatus,
  Plan,
  PlanBody,
  PushAnswer,
  PushBody,
  SyncInfo,
} from '../protocol/schema.js';

const who = { auth: ['key', 'session'] as const, tag: 'sync' };
/** What a credential may sync: a key its services, a session (the workspace's owner) everything. */
const servicesOf = (viewer: Viewer) => (viewer.kind === 'key' ? viewer.services : [...SERVICE_NAMES]);

export const syncInfo = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/info',
  ...who,
  response: SyncInfo,
  tool: 'sync_info',
  summary:
    'The workspace this credential syncs with, the kinds it may sync (and why not the others), the feed head',
  handler: ({ workspace, viewer }, { sync }) => sync.hosted.info(workspace, servicesOf(viewer)),
});

export const syncPlan = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/plan',
  ...who,
  body: PlanBody,
  response: Plan,
  tool: 'sync_plan',
  summary:
    'Before sending: which records the server has as they are, which it would take, which conflict, which blobs it lacks',
  description:
    'Body `{ records: [{ kind, id, rev, baseSeq, sha256 }], blobs: [{ sha256, size }] }` (≤ 1000 each). `action` per record: `unchanged` (the server holds this hash), `push` (its seq is your baseSeq), `conflict` (it moved on: a push would answer 409 with its version), `skip` (the key lacks the service).',
  handler: ({ workspace, viewer, body }, { sync }) =>
    sync.hosted.plan(workspace.id, servicesOf(viewer), body),
});

export const syncPush = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/push',
  ...who,
  body: PushBody,
  response: PushAnswer,
  tool: 'sync_push',
  summary:
    'Write records over the versions they were based on (Idempotency-Key required); 409 per record when the server moved on',
  description:
    'Header `Idempotency-Key` (or `idempotencyKey` in the body, for MCP): SHA-256 (hex) of the records’ push keys joined by newlines, each push key being SHA-256 of `kind\\nid\\nrev\\nsha256`. Each record is written only if the server’s seq for it is still `baseSeq` (0: it must not exist); a result carries `status` as the record’s own request would (200/201 applied, 409 with `server`: the server’s version, which wins). A push that was applied before answers the same again (`replayed`).',
  handler: ({ workspace, viewer, body, idempotencyKey }, { sync }) =>
    sync.hosted.push(workspace.id, servicesOf(viewer), body.records, idempotencyKey ?? body.idempotencyKey),
});

export const syncChanges = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/changes',
  ...who,
  query: ChangesQuery,
  response: ChangesPage,
  tool: 'sync_changes',
  summary:
    'What changed in the workspace after `since`, oldest first: the latest version of each record, deletes as tombstones',
  description:
    'Pass `next` as the following `since` until `more` is false. A `since` past the feed’s head answers 409 (not this feed: pull from 0).',
  handler: ({ workspace, viewer, query }, { sync }) =>
    sync.hosted.changes(workspace.id, servicesOf(viewer), query),
});

const bytes = { ...who, service: 'assets' as const };
/**
 * Packs carry asset bytes and records too large to send inline (a long transcript, a large publication's version):
 * a key with the service of any kind that has either may send them.
 */
const packs = who;
const PACK_SERVICES = ['assets', 'transcription', 'diagrams', 'charts', 'artifacts'] as const;
function mayPack(viewer: Viewer): void {
  const services = servicesOf(viewer);
  if (!PACK_SERVICES.some((s) => services.includes(s))) throw forbiddenService('assets', services);
}

export const beginSyncPack = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/packs',
  ...packs,
  body: BeginPackBody,
  response: Pack,
  status: 201,
  tool: 'sync_packs_begin',
  summary: 'Begin a pack: blobs sent back to back as one chunked upload (parts of partSize, resumable)',
  description:
    'A key needs the service of a kind that syncs (bytes of assets, records too large to send inline).',
  handler: ({ workspace, viewer, body }, { sync }) => {
    mayPack(viewer);
    return sync.hosted.beginPack(workspace.id, body);
  },
});

export const putSyncPackPart = defineRawRoute({
  method: 'PUT',
  path: '/api/v1/sync/packs/:uploadId/parts/:index',
  ...packs,
  params: PackPartParams,
  requestContentType: 'application/octet-stream',
  summary: 'Send (or send again) one part of a pack as raw bytes',
  handler: ({ workspace, viewer, params, ctx }, { sync }) => {
    mayPack(viewer);
    return sync.hosted.putPackPart(workspace.id, params.uploadId, params.index, ctx.req);
  },
});

export const getSyncPack = defineRoute({
  method: 'GET',
  path: '/api/v1/sync/packs/:uploadId',
  ...packs,
  params: PackParams,
  response: PackStatus,
  tool: 'sync_packs_get',
  summary: 'The parts of a pack still missing, to resume it',
  handler: ({ workspace, viewer, params }, { sync }) => {
    mayPack(viewer);
    return sync.hosted.packStatus(workspace.id, params.uploadId);
  },
});

export const completeSyncPack = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/packs/:uploadId/complete',
  ...packs,
  params: PackParams,
  response: CompletedPack,
  tool: 'sync_packs_complete',
  summary: 'Join the parts and keep every blob whose bytes hash to its name; answers which were stored',
  handler: ({ workspace, viewer, params }, { sync }) => {
    mayPack(viewer);
    return sync.hosted.completePack(workspace.id, params.uploadId);
  },
});

export const getSyncBlob = defineRawRoute({
  method: 'GET',
  path: '/api/v1/sync/blobs/:sha256',
  ...bytes,
  params: BlobParams,
  produces: 'application/octet-stream',
  summary: 'A blob of this workspace by SHA-256, whole or from a Range (resumed downloads)',
  handler: ({ workspace, params, ctx }, { sync }) =>
    sync.hosted.blob(workspace.id, params.sha256, ctx.get('range') || undefined),
});

export const fetchSyncBlobs = defineRoute({
  method: 'POST',
  path: '/api/v1/sync/blobs',
  ...bytes,
  body: FetchBlobsBody,
  produces: 'application/octet-stream',
  summary:
    'Many blobs of this workspace back to back, in the order asked (each is as long as its record says)',
  handler: ({ workspace, body }, { sync }) => sync.hosted.manyBlobs(workspace.id, body.blobs),
});

export const syncProtocolRoutes = {
  syncInfo,
  syncPlan,
  syncPush,
  syncChanges,
  beginSyncPack,
  putSyncPackPart,
  getSyncPack,
  completeSyncPack,
  getSyncBlob,
  fetchSyncBlobs,
};
