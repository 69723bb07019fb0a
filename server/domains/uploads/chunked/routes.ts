/**
 * Chunked upload routes (docs/transcription.md#chunked-upload), each defined once for both its callers: a key with
 * the transcription service at /api/v1/uploads/chunked (these are also its MCP tools), and the signed-in dashboard,
 * which must never hold a key, at /api/v1/session-uploads/chunked. Each caller reaches only its own paths: a session
 * is refused the key's (403) and a key the session's (403), as docs/security.md lists; a session's writes pass the
 * Origin check every cookie write passes.
 */
import { z } from 'zod';
import { defineRawRoute, defineRoute } from '../../../http/define-route.js';
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

/** Who calls, at which paths, and how its routes are named in the reference (`beginChunkedUpload` ...). */
const callers = {
  key: {
    base: '/api/v1/uploads/chunked',
    who: { auth: 'key', service: 'transcription' },
    name: '',
    tools: true,
    note: '(API key with transcription only)',
  },
  // No `service`: a session has every service; it names what a key must be enabled for, and keys cannot call these.
  session: {
    base: '/api/v1/session-uploads/chunked',
    who: { auth: 'session', tag: 'transcription' },
    name: 'Session',
    tools: false,
    note: '(dashboard session only; keys use /api/v1/uploads/chunked)',
  },
} as const;

type Caller = (typeof callers)[keyof typeof callers];

function chunkedRoutesFor({ base, who, name, tools, note }: Caller) {
  const tool = (verb: string) => (tools ? `chunked_uploads_${verb}` : undefined);

  const beginChunkedUpload = defineRoute({
    method: 'POST',
    path: base,
    ...who,
    body: BeginChunkedBody,
    response: ChunkedUpload,
    status: 201,
    tool: tool('begin'),
    summary: `Begin a chunked upload of long audio ${note}`,
    description:
      'Body `{ filename, contentType, size, sha256?, partSize? (default 8 MiB), expiresIn? (seconds, default 86400), language?, prompt? }`. Part i covers bytes [i·partSize, min(size, (i+1)·partSize)); indexes start at 0. PUT the parts in any order, then POST .../complete.',
    handler: async ({ workspace, body }, { chunkedUploads }) =>
      chunkedUploads.present(await chunkedUploads.begin(workspace.id, body)),
  });

  const putChunkedPart = defineRawRoute({
    method: 'PUT',
    path: `${base}/:uploadId/parts/:index`,
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

  const getChunkedUpload = defineRoute({
    method: 'GET',
    path: `${base}/:uploadId`,
    ...who,
    params: UploadParams,
    response: ChunkedUploadStatus,
    tool: tool('get'),
    summary: 'The parts received so far and those missing, to resume an upload',
    handler: ({ workspace, params }, { chunkedUploads }) =>
      chunkedUploads.status(workspace.id, params.uploadId),
  });

  const completeChunkedUpload = defineRoute({
    method: 'POST',
    path: `${base}/:uploadId/complete`,
    ...who,
    params: UploadParams,
    response: CompletedUpload,
    tool: tool('complete'),
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

  const abortChunkedUpload = defineRoute({
    method: 'DELETE',
    path: `${base}/:uploadId`,
    ...who,
    params: UploadParams,
    response: z.void(),
    status: 204,
    tool: tool('abort'),
    summary: 'Abort a chunked upload and delete its parts',
    handler: async ({ workspace, params }, { chunkedUploads }) => {
      await chunkedUploads.abort(workspace.id, params.uploadId);
      return reply.empty(204);
    },
  });

  return {
    [`begin${name}ChunkedUpload`]: beginChunkedUpload,
    [`put${name}ChunkedPart`]: putChunkedPart,
    [`get${name}ChunkedUpload`]: getChunkedUpload,
    [`complete${name}ChunkedUpload`]: completeChunkedUpload,
    [`abort${name}ChunkedUpload`]: abortChunkedUpload,
  };
}

export const chunkedUploadRoutes = chunkedRoutesFor(callers.key);
export const sessionChunkedUploadRoutes = chunkedRoutesFor(callers.session);
