/** The assets API (docs/api.md): uploads, client-upload grants, asset records. Serve routes are in serve-routes.ts. */
import { z } from 'zod';
import { bearerOf } from '../../http/authenticate.js';
import { defineRawRoute, defineRoute } from '../../http/define-route.js';
import { notFound } from '../../http/errors.js';
import { receiveMultipart } from '../uploads/direct/receive-multipart.js';
import { reply } from '../../http/reply.js';
import { presentAsset, presentAssetPage } from './present-asset.js';
import {
  Asset,
  AssetList,
  AssetParams,
  ListAssetsQuery,
  MintGrantBody,
  PatchAssetBody,
  UploadGrant,
} from './schema.js';
import { GRANT_PREFIX } from '../uploads/grant/grants.js';

/** Any origin may upload with a grant, never with credentials (docs/security.md#cors). */
const CLIENT_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, content-type',
  'Access-Control-Max-Age': '600',
  'Access-Control-Expose-Headers': 'Retry-After',
};

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
  handler: async ({ workspace, origin, ctx }, { assets }) => {
    const received = await assets.receive((space) => receiveMultipart(ctx.req, space));
    return presentAsset(await assets.upload(workspace.id, received), origin);
  },
});

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
  handler: async ({ workspace, viewer, body, origin }, { assets }) => {
    const { secret, record } = await assets.grants.mint(workspace.id, viewer.keyId, body);
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
  handler: async ({ origin, ctx }, { assets }) => {
    const bearer = bearerOf(ctx.get('authorization') || undefined);
    const record = await assets.uploadWithGrant(
      bearer?.startsWith(GRANT_PREFIX) ? bearer : undefined,
      (beforeFile) => assets.receive((space) => receiveMultipart(ctx.req, { ...space, beforeFile })),
    );
    return presentAsset(record, origin);
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

export const listAssets = defineRoute({
  method: 'GET',
  path: '/api/v1/assets',
  auth: ['session', 'key'],
  service: 'assets',
  query: ListAssetsQuery,
  response: AssetList,
  tool: 'assets_list',
  summary: 'List assets, newest first',
  description:
    '`type` (image|audio|video|document|svg|other), `search` (displayName, filename, tags), `tags` (comma list, all must match), `limit` 1-200 (default 50), `cursor` from `nextCursor`.',
  handler: async ({ workspace, query, origin }, { assets }) => {
    const page = await assets.list(workspace.id, query);
    return presentAssetPage(page.rows, page.nextCursor, origin);
  },
});

export const getAsset = defineRoute({
  method: 'GET',
  path: '/api/v1/assets/:id',
  auth: ['session', 'key'],
  service: 'assets',
  params: AssetParams,
  response: Asset,
  tool: 'assets_get',
  summary: 'Get one asset',
  handler: async ({ workspace, params, origin }, { assets }) =>
    presentAsset(await assets.get(workspace.id, params.id), origin),
});

export const updateAsset = defineRoute({
  method: 'PATCH',
  path: '/api/v1/assets/:id',
  auth: ['session', 'key'],
  service: 'assets',
  params: AssetParams,
  body: PatchAssetBody,
  response: Asset,
  tool: 'assets_update',
  summary: 'Update displayName and/or tags',
  handler: async ({ workspace, params, body, origin }, { assets }) =>
    presentAsset(await assets.update(workspace.id, params.id, body), origin),
});

export const deleteAsset = defineRoute({
  method: 'DELETE',
  path: '/api/v1/assets/:id',
  auth: ['session', 'key'],
  service: 'assets',
  params: AssetParams,
  response: z.void(),
  status: 204,
  tool: 'assets_delete',
  summary: 'Delete an asset, its bytes and its cached image derivatives',
  handler: async ({ workspace, params }, { assets }) => {
    if (!(await assets.remove(workspace.id, params.id))) throw notFound('Asset');
    return reply.empty(204);
  },
});

export const assetApiRoutes = {
  uploadAsset,
  mintUploadGrant,
  clientUpload,
  clientUploadPreflight,
  listAssets,
  getAsset,
  updateAsset,
  deleteAsset,
};
