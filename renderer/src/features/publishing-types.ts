// TEMPORARY, replace at merge: publishing (diagrams, charts, artifacts) is built on another branch. These are
// the shapes agreed as its contract; once its schemas land, swap each type for a type-only import from
// '@server/capabilities/publishing/schema' (and charts/diagrams/artifacts) like api/types.ts does.
export type PublicationKind = 'diagrams' | 'charts' | 'artifacts';
export type Visibility = 'private' | 'unlisted' | 'public';

export type Publication = {
  slug: string;
  title: string;
  description?: string;
  tags: string[];
  /** Diagrams only. */
  kind?: string;
  visibility: Visibility;
  archived: boolean;
  version: number;
  latestVersion: number;
  createdAt: string;
  updatedAt: string;
  urls: { page: string; svg?: string; png?: string };
};

export type PublicationDetail = Publication & { svg?: string; spec?: unknown; document?: unknown };

export type PublicationVersion = { version: number; title: string; createdAt: string };

export type PublicationFilters = { q?: string; tag?: string; kind?: string; includeArchived?: boolean };
