/**
 * Published items, one collection per kind (diagrams, charts, artifacts): a row per item (slug, metadata,
 * visibility, archived, latest version) and a row per version (its document). Slugs are a unique field, so
 * they are unique across the instance and page routes find an item without knowing its workspace.
 */
import { defineCollection } from '../../store/types.js';

export type Kind = 'diagrams' | 'charts' | 'artifacts';
export const VISIBILITIES = ['private', 'unlisted', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export type PublicationRecord = {
  id: string;
  slug: string;
  title: string;
  description?: string;
  tags: string[];
  /** The diagram kind (flowchart, sequence ...); charts and artifacts have none. */
  kind?: string;
  visibility: Visibility;
  archived: boolean;
  /** The latest version's number. */
  version: number;
  /** The seq of the item's own last write, while only its versions have raised it since (versions/raise-item.ts). */
  ownSeq?: number | null;
  /** Title, description and tags lower-cased, for `q`. */
  searchText: string;
  createdAt: string;
  updatedAt: string;
};

export type VersionRecord = {
  /** `<publication id>@<version>`: an insert of a number already taken fails, so two PUTs never share one. */
  id: string;
  publicationId: string;
  version: number;
  title: string;
  description?: string;
  tags: string[];
  kind?: string;
  document: unknown;
  /** What the kind derived when checking the document (a diagram's size, an artifact's references). */
  derived?: Record<string, unknown>;
  createdAt: string;
  /** When it arrived here by sync; absent on a version published here (sync/unfinished-publish.ts). */
  receivedAt?: string;
};

const specs = new Map<Kind, ReturnType<typeof specsFor>>();

function specsFor(kind: Kind) {
  return {
    items: defineCollection<PublicationRecord>({
      name: kind,
      scope: 'workspace',
      fields: {
        slug: 'text',
        kind: 'text',
        tags: 'text[]',
        visibility: 'text',
        archived: 'boolean',
        searchText: 'text',
        version: 'number',
        createdAt: 'text',
        updatedAt: 'text',
      },
      unique: ['slug'],
    }),
    versions: defineCollection<VersionRecord>({
      name: `${kind}-versions`,
      scope: 'workspace',
      fields: { publicationId: 'text', version: 'number', createdAt: 'text' },
    }),
  };
}

export function collectionsOf(kind: Kind) {
  let found = specs.get(kind);
  if (!found) {
    found = specsFor(kind);
    specs.set(kind, found);
  }
  return found;
}

export const versionId = (publicationId: string, version: number) => `${publicationId}@${version}`;

export const searchTextOf = (p: { title: string; description?: string; tags: string[] }) =>
  [p.title, p.description ?? '', ...p.tags].join('\n').toLowerCase();
