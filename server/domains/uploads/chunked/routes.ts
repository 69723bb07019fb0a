/**
 * Chunked upload routes (docs/transcription.md#chunked-upload), each defined once for both its callers: a key with
 * the transcription service at /api/v1/uploads/chunked (these are also its MCP tools), and the signed-in dashboard,
 * which must never hold a key, at /api/v1/session-uploads/chunked (`forSession`). Each caller reaches only its own
 * paths: a session is refused the key's (403) and a key the session's (403), as docs/security.md lists; a session's
 * writes pass the Origin check every cookie write passes.
 */
import { z } from 'zod';
import { defineRawRoute, defineRoute } from '../../../deps.js';
import type { AnyRoute } from '../../../http/define-route.js';
import { reply } from '../../../http/reply.js';
import {
  BeginChunkedBody,
  ChunkedUpload,
  ChunkedUploadStatus,
  CompletedUpload,
  PartParams,
  ReceivedPart,
  UploadParams,
} from './schema.js';

// Keys with the transcription service only; the session's copies (`forSession`) are for the dashboard.
const who = { auth: 'key' as const, service: 'transcription' as const };

export const beginChunkedUpload = defineRoute({
  method: 'POST',
  path: '/api/v1/uploads/chunked',
  ...who,
  body: BeginChunkedBody,
  response: ChunkedUpload,
  status: 201,
  tool: 'chunked_uploads_begin',
  summary: 'Begin a chunked upload of long audio',
  description:
    'Body `{ filename, contentType, size, sha256?, partSize? (default 8 MiB), expiresIn? (seconds, default 86400), language?, prompt? }` and the transcript options of POST /api/v1/transcribe as JSON (`task`, `vad`, `vadThreshold`, ..., `temperatureIncrement`). Part i covers bytes [i·partSize, min(size, (i+1)·partSize)); indexes start at 0. PUT the parts in any order, then POST .../complete.',
  handler: async ({ workspace, body }, { chunkedUploads }) =>
    chunkedUploads.present(await chunkedUploads.begin(workspace.id, body)),
});

export const putChunkedPart = defineRawRoute({
  method: 'PUT',
  path: '/api/v1/uploads/chunked/:uploadId/parts/:index',
  ...who,
  params: PartParams,
  requestContentType: 'application/octet-stream',
  response: ReceivedPart,
  summary: 'Upload (or replace) one part as raw bytes',
  description:
    'Exactly the part’s bytes (400 if fewer, 413 if more). Optional `X-Part-SHA256: <hex>` or `Content-Digest: sha-256=:<base64>:` is checked (400 on mismatch; the part is discarded). Re-sending an index replaces it atomically.',
  handler: ({ workspace, params, ctx }, { chunkedUploads }) =>
    chunkedUploads.putPart(workspace.id, params.uploadId, params.index, ctx.req),
});

export const getChunkedUpload = defineRoute({
  method: 'GET',
  path: '/api/v1/uploads/chunked/:uploadId',
  ...who,
  params: UploadParams,
  response: ChunkedUploadStatus,
  tool: 'chunked_uploads_get',
  summary: 'The parts received so far and those missing, to resume an upload',
  handler: ({ workspace, params }, { chunkedUploads }) =>
    chunkedUploads.status(workspace.id, params.uploadId),
});

export const completeChunkedUpload = defineRoute({
  method: 'POST',
  path: '/api/v1/uploads/chunked/:uploadId/complete',
  ...who,
  params: UploadParams,
  response: CompletedUpload,
  tool: 'chunked_uploads_complete',
  summary: 'Reassemble and verify the parts, then create the audio asset and a pending transcript',
  description:
    '400 names missing or wrong-sized parts, or a size/sha256 mismatch of the whole file. Calling it again answers the same transcript and asset.',
  handler: async ({ workspace, params, origin }, { chunkedUploads, transcripts, assets }) => {
    const { transcriptId, assetId } = await chunkedUploads.complete(workspace.id, params.uploadId);
    return {
      transcript: await transcripts.get(workspace.id, transcriptId),
      asset: assets.present(await assets.get(workspace.id, assetId), origin),
    };
  },
});

export const abortChunkedUpload = defineRoute({
  method: 'DELETE',
  path: '/api/v1/uploads/chunked/:uploadId',
  ...who,
  params: UploadParams,
  response: z.void(),
  status: 204,
  tool: 'chunked_uploads_abort',
  summary: 'Abort a chunked upload and delete its parts',
  handler: async ({ workspace, params }, { chunkedUploads }) => {
    await chunkedUploads.abort(workspace.id, params.uploadId);
    return reply.empty(204);
  },
});

const KEY_BASE = '/api/v1/uploads/chunked';
const SESSION_BASE = '/api/v1/session-uploads/chunked';

/**
 * The same route for the dashboard's session, at its own path. No `service`: a session has every service; it names
 * what a key must be enabled for, and keys cannot call these. Not an MCP tool: MCP takes keys only.
 */
function forSession({ service: _service, tool: _tool, ...route }: AnyRoute): AnyRoute {
  return {
    ...route,
    path: route.path.replace(KEY_BASE, SESSION_BASE),
    auth: 'session',
    tag: 'transcription',
    summary: `${route.summary}, from the dashboard (session only; keys use ${KEY_BASE})`,
  };
}

export const sessionChunkedUploadRoutes = {
  beginSessionChunkedUpload: forSession(beginChunkedUpload),
  putSessionChunkedPart: forSession(putChunkedPart),
  getSessionChunkedUpload: forSession(getChunkedUpload),
  completeSessionChunkedUpload: forSession(completeChunkedUpload),
  abortSessionChunkedUpload: forSession(abortChunkedUpload),
};

export const chunkedUploadRoutes = {
  beginChunkedUpload,
  putChunkedPart,
  getChunkedUpload,
  completeChunkedUpload,
  abortChunkedUpload,
};
