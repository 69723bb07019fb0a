// Uploads over MCP, where a route would need a multipart or raw-bytes request: a whole file (assets_upload) and
// one part of a chunked upload (chunked_uploads_put_part), from base64 bytes or a local file the owner allowed.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { Asset, DisplayName, Tags } from '../../../domains/assets/schema.js';
import { ReceivedPart } from '../../../domains/uploads/chunked/schema.js';
import {
  exactlyOneSource,
  FileSource,
  ownedBy,
  receiveSource,
  SOURCE_MESSAGE,
} from '../../../domains/uploads/service.js';
import { defineTool } from './define-tool.js';

export const assetsUpload = defineTool({
  name: 'assets_upload',
  service: 'assets',
  method: 'POST',
  summary: 'Upload a file as a new asset, from base64 bytes or a local file path',
  description:
    'Either `path` (absolute, inside a folder the owner allowed for agents; the file is copied, progress is reported for large files) or `contentBase64` with `filename`. Optional `displayName` and `tags`. The type is detected from the bytes; the answer carries the public URLs.',
  input: z
    .strictObject({ ...FileSource, displayName: DisplayName.optional(), tags: Tags.optional() })
    .refine(exactlyOneSource, SOURCE_MESSAGE),
  response: Asset,
  async run({ workspace, origin, args }, { uploads, assets, config }, call) {
    const file = await uploads.receive((space) =>
      receiveSource(args, {
        ...space,
        roots: config.agentFileRoots,
        signal: call.signal,
        onProgress: (copied, size) => call.progress(copied, size, 'copying'),
      }),
    );
    const record = await ownedBy(file.tmpPath, () =>
      uploads.createFromFile(workspace.id, {
        path: file.tmpPath,
        filename: args.filename ?? file.filename,
        displayName: args.displayName,
        tags: args.tags,
      }),
    );
    return assets.present(record, origin);
  },
});

export const chunkedPutPart = defineTool({
  name: 'chunked_uploads_put_part',
  service: 'transcription',
  method: 'PUT',
  summary: 'Upload (or replace) one part of a chunked upload, as base64 bytes',
  description:
    'Part `index` (from 0) covers bytes [index·partSize, min(size, (index+1)·partSize)) of the file declared to chunked_uploads_begin and must be exactly that long. Optional `sha256` (hex) is checked. For a local file, transcripts_create with `path` does the whole upload in one call.',
  input: z.strictObject({
    uploadId: z.string().min(1).max(64),
    index: z.number().int().min(0),
    contentBase64: z.base64().describe('The part’s bytes, base64-encoded'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits')
      .optional(),
  }),
  response: ReceivedPart,
  async run({ workspace, args }, { chunkedUploads }) {
    const bytes = Buffer.from(args.contentBase64, 'base64');
    // putPart reads the part as the PUT route hands it over: a byte stream with its headers.
    const body = Object.assign(Readable.from([bytes]), {
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
        ...(args.sha256 && { 'x-part-sha256': args.sha256 }),
      },
    }) as unknown as IncomingMessage;
    return chunkedUploads.putPart(workspace.id, args.uploadId, String(args.index), body);
  },
});
