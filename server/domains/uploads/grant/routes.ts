/** A client-upload grant minted by a key, and the one upload a browser makes with it, without a key or cookies. */

import { defineRawRoute, defineRoute } from '../../../deps.js';
import { bearerOf } from '../../../http/authenticate.js';
import { reply } from '../../../http/reply.js';
import { Asset, MintGrantBody, UploadGrant } from '../../assets/schema.js';
import { receiveMultipart } from '../direct/receive-multipart.js';
import { GRANT_PREFIX } from './grants.js';

/** Any origin may upload with a grant, never with credentials (docs/security.md#cors). */
const CLIENT_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, content-type',
  'Access-Control-Max-Age': '600',
  'Access-Control-Expose-Headers': 'Retry-After',
};

export const mintUploadGrant = defineRoute({
  method: 'POST',
  path: '/api/v1/uploads/grant',
  auth: 'key',
  service: 'assets',
  body: MintGrantBody,
  response: UploadGrant,
  status: 201,
  tool: 'assets_mint_grant',
  summary: 'Mint a short-lived, single-use client-upload grant',
  description:
    'Body (all optional): `expiresIn` seconds (default 600, max 3600), `maxBytes`, `allowedTypes` (content types like image/png or image/*, or asset types like audio), `displayName`, `tags`. The browser then POSTs multipart to `uploadUrl` with `Authorization: Bearer <grant>`.',
  handler: async ({ workspace, viewer, body, origin }, { uploads }) => {
    const { secret, record } = await uploads.grants.mint(workspace.id, viewer.keyId, body);
    const { maxBytes, allowedTypes } = record;
    return {
      grant: secret,
      expiresAt: record.expiresAt,
      uploadUrl: `${origin}/api/v1/uploads/client`,
      maxBytes,
      allowedTypes,
    };
  },
});

export const clientUpload = defineRawRoute({
  method: 'POST',
  path: '/api/v1/uploads/client',
  auth: ['grant', 'public'],
  grantPurpose: 'upload',
  cors: CLIENT_CORS,
  requestContentType: 'multipart/form-data',
  response: Asset,
  status: 201,
  summary: 'Upload one file with a client-upload grant (no key, no cookies)',
  description:
    'Send the grant as `Authorization: Bearer fg_...`, or as a form field `grant` placed before the `file` field. A used or expired grant answers 410. CORS: any origin, without credentials.',
  handler: async ({ origin, ctx }, { uploads, assets }) => {
    const bearer = bearerOf(ctx.get('authorization') || undefined);
    const record = await uploads.uploadWithGrant(
      bearer?.startsWith(GRANT_PREFIX) ? bearer : undefined,
      (beforeFile) => uploads.receive((space) => receiveMultipart(ctx.req, { ...space, beforeFile })),
    );
    return assets.present(record, origin);
  },
});

export const clientUploadPreflight = defineRoute({
  method: 'OPTIONS',
  path: '/api/v1/uploads/client',
  auth: 'public',
  cors: CLIENT_CORS,
  hidden: true,
  summary: 'CORS preflight for client uploads',
  handler: () => reply.empty(204),
});

export const grantUploadRoutes = { mintUploadGrant, clientUpload, clientUploadPreflight };
