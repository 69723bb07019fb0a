/** The assets API (docs/api.md): asset records. Uploads are in domains/uploads/, serve routes in serve-routes.ts. */
import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import { notFound } from '../../http/errors.js';
import { reply } from '../../http/reply.js';
import { presentAsset, presentAssetPage } from './present-asset.js';
import { Asset, AssetList, AssetParams, ListAssetsQuery, PatchAssetBody } from './schema.js';

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
  listAssets,
  getAsset,
  updateAsset,
  deleteAsset,
};
