/** A file sent whole as multipart/form-data with a key or a session (docs/api.md). */

import { defineRawRoute } from '../../../deps.js';
import { Asset } from '../../assets/schema.js';
import { receiveMultipart } from './receive-multipart.js';

export const uploadAsset = defineRawRoute({
  method: 'POST',
  path: '/api/v1/uploads',
  auth: ['session', 'key'],
  service: 'assets',
  requestContentType: 'multipart/form-data',
  response: Asset,
  status: 201,
  summary: 'Upload a file as a new asset',
  description:
    'multipart/form-data with the file in field `file`; optional fields `displayName` and `tags` (comma list or JSON array). The type is detected from the bytes.',
  handler: async ({ workspace, origin, ctx }, { uploads, assets }) => {
    const received = await uploads.receive((space) => receiveMultipart(ctx.req, space));
    return assets.present(await uploads.upload(workspace.id, received), origin);
  },
});

export const directUploadRoutes = { uploadAsset };
