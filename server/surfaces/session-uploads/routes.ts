/**
 * The chunked upload of long audio for the signed-in dashboard. POST /api/v1/uploads/chunked is for keys with
 * the transcription service (docs/transcription.md), and the dashboard must never hold a key, so a session uses these
 * paths: the same service, the same part rules and answers, in the session's workspace, behind the Origin
 * check every cookie write passes.
 */
import { z } from 'zod';
import { presentAsset } from '../../domains/assets/present-asset.js';
import {
  BeginChunkedBody,
  ChunkedUpload,
  ChunkedUploadStatus,
  CompletedUpload,
  PartParams,
  ReceivedPart,
  UploadParams,
} from '../../domains/uploads/chunked/schema.js';
import { defineRawRoute, defineRoute } from '../../http/define-route.js';
import { reply } from '../../http/reply.js';

// No `service`: a session has every service; it names what a key must be enabled for, and keys cannot call these.
const who = { auth: 'session' as const, tag: 'transcription' };
const BASE = '/api/v1/session-uploads/chunked';

export const beginSessionChunkedUpload = defineRoute({
  method: 'POST',
  path: BASE,
  ...who,
  body: BeginChunkedBody,
  response: ChunkedUpload,
  status: 201,
  summary:
    'Begin a chunked upload of long audio from the dashboard (session only; keys use /api/v1/uploads/chunked)',
  handler: async ({ workspace, body }, { chunkedUploads }) =>
    chunkedUploads.present(await chunkedUploads.begin(workspace.id, body)),
});

export const putSessionChunkedPart = defineRawRoute({
  method: 'PUT',
  path: `${BASE}/:uploadId/parts/:index`,
  ...who,
  params: PartParams,
  requestContentType: 'application/octet-stream',
  response: ReceivedPart,
  summary: 'Upload (or replace) one part of a dashboard chunked upload',
  handler: ({ workspace, params, ctx }, { chunkedUploads }) =>
    chunkedUploads.putPart(workspace.id, params.uploadId, params.index, ctx.req),
});

export const getSessionChunkedUpload = defineRoute({
  method: 'GET',
  path: `${BASE}/:uploadId`,
  ...who,
  params: UploadParams,
  response: ChunkedUploadStatus,
  summary: 'Parts received and missing of a dashboard chunked upload',
  handler: ({ workspace, params }, { chunkedUploads }) =>
    chunkedUploads.status(workspace.id, params.uploadId),
});

export const completeSessionChunkedUpload = defineRoute({
  method: 'POST',
  path: `${BASE}/:uploadId/complete`,
  ...who,
  params: UploadParams,
  response: CompletedUpload,
  summary: 'Reassemble a dashboard chunked upload into an audio asset and a pending transcript',
  handler: async ({ workspace, params, origin }, { chunkedUploads, transcripts, assets }) => {
    const { transcriptId, assetId } = await chunkedUploads.complete(workspace.id, params.uploadId);
    return {
      transcript: await transcripts.get(workspace.id, transcriptId),
      asset: presentAsset(await assets.get(workspace.id, assetId), origin),
    };
  },
});

export const abortSessionChunkedUpload = defineRoute({
  method: 'DELETE',
  path: `${BASE}/:uploadId`,
  ...who,
  params: UploadParams,
  response: z.void(),
  status: 204,
  summary: 'Abort a dashboard chunked upload and delete its parts',
  handler: async ({ workspace, params }, { chunkedUploads }) => {
    await chunkedUploads.abort(workspace.id, params.uploadId);
    return reply.empty(204);
  },
});

export const sessionUploadRoutes = {
  beginSessionChunkedUpload,
  putSessionChunkedPart,
  getSessionChunkedUpload,
  completeSessionChunkedUpload,
  abortSessionChunkedUpload,
};
