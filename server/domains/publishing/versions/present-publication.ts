/** A publication as the API answers it: metadata of the version shown, the latest number, ready URLs. */

import type { PublicationSummary } from '../schema.js';
import type { Found } from './publication-model.js';

export type PagePaths = { prefix: '/d' | '/c' | '/a'; svg: boolean; png: boolean };

export function presentSummary(
  { item, version }: Found,
  origin: string,
  paths: PagePaths,
): PublicationSummary {
  const latest = version.version === item.version;
  const query = latest ? '' : `?version=${version.version}`;
  const base = `${origin}${paths.prefix}/${item.slug}`;
  return {
    slug: item.slug,
    title: version.title,
    ...(version.description ? { description: version.description } : {}),
    tags: version.tags,
    ...(version.kind ? { kind: version.kind } : {}),
    visibility: item.visibility,
    archived: item.archived,
    version: version.version,
    latestVersion: item.version,
    createdAt: item.createdAt,
    updatedAt: latest ? item.updatedAt : version.createdAt,
    urls: {
      page: `${base}${query}`,
      ...(paths.svg ? { svg: `${base}.svg${query}` } : {}),
      ...(paths.png ? { png: `${base}.png${query}` } : {}),
    },
  };
}

/** A list row: the item's own (latest) metadata, no document. */
export function presentItem(item: Found['item'], origin: string, paths: PagePaths): PublicationSummary {
  const version = { ...item, id: '', publicationId: item.id, document: undefined, createdAt: item.updatedAt };
  return presentSummary({ item, version, workspaceId: '' }, origin, paths);
}
