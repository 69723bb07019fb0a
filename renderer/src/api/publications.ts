// What diagrams, charts and artifacts share on the wire (they mirror server/domains/publishing):
// list with filters, one version, the version history, visibility, archive. Each feature's api/ files
// bind these to their kind.
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type {
  Publication,
  PublicationDetail,
  PublicationFilters,
  PublicationKind,
  PublicationVersion,
  Visibility,
} from './types';
import { wsKey } from './workspace-store';

const base = (kind: PublicationKind, slug?: string) =>
  `/api/v1/${kind}${slug ? `/${encodeURIComponent(slug)}` : ''}`;

export const publicationsQuery = (kind: PublicationKind, filters: PublicationFilters) =>
  infiniteQueryOptions({
    queryKey: wsKey(kind, 'list', filters),
    queryFn: ({ pageParam, signal }) =>
      api<{ data: Publication[]; nextCursor: string | null }>(base(kind), {
        query: {
          ...filters,
          includeArchived: filters.includeArchived || undefined,
          limit: 100,
          cursor: pageParam,
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const publicationQuery = (kind: PublicationKind, slug: string, version?: number) =>
  queryOptions({
    queryKey: wsKey(kind, 'one', slug, version ?? 'latest'),
    queryFn: ({ signal }) => api<PublicationDetail>(base(kind, slug), { query: { version }, signal }),
  });

export const versionsQuery = (kind: PublicationKind, slug: string) =>
  queryOptions({
    queryKey: wsKey(kind, 'versions', slug),
    queryFn: ({ signal }) => api<{ data: PublicationVersion[] }>(`${base(kind, slug)}/versions`, { signal }),
    select: (list) => list.data,
  });

function useRefresh(kind: PublicationKind) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: wsKey(kind) });
}

/** Session only (docs/api.md, "Visibility, slugs, versions"): an agent's key can publish but never expose. */
export function useSetVisibility(kind: PublicationKind) {
  const refresh = useRefresh(kind);
  return useMutation({
    mutationFn: ({ slug, visibility }: { slug: string; visibility: Visibility }) =>
      api<Publication>(`${base(kind, slug)}/visibility`, { method: 'POST', body: { visibility } }),
    onSuccess: refresh,
  });
}

export function useArchive(kind: PublicationKind) {
  const refresh = useRefresh(kind);
  return useMutation({
    mutationFn: ({ slug, archived }: { slug: string; archived: boolean }) =>
      api<Publication>(`${base(kind, slug)}/${archived ? 'archive' : 'unarchive'}`, { method: 'POST' }),
    onSuccess: refresh,
  });
}
