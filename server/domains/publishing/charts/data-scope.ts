/**
 * What a chart may read for its caller: data assets are the workspace's files, and a rendered chart shows their
 * rows (a preview answers the drawing), so a key needs the assets service to name one (docs/publishing.md,
 * "Charts"). Decided from the spec alone, before any asset is looked up, so a key without assets learns nothing of
 * them, not even whether an id exists.
 */
import { forbidden } from '../../../http/errors.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { AssetRef } from './chart-safety.js';

/** 403 naming assets, with every place that names one, when the caller lacks the service; else nothing. */
export function assertAssetsInScope(refs: AssetRef[], services: readonly ServiceName[]): void {
  if (refs.length === 0 || services.includes('assets')) return;
  throw forbidden(
    `This API key is not enabled for the assets service, so it cannot read what ${refs[0].pointer} names`,
    {
      service: 'assets',
      enabledServices: [...services],
      issues: refs.map(({ assetId, pointer }) => ({
        path: pointer,
        message: `reading asset ${assetId} needs the assets service, which this API key is not enabled for`,
      })),
    },
  );
}
