import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { AssetList, AssetType } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export type AssetFilters = { type?: AssetType; search?: string; tags?: string };
export const PAGE_SIZE = 200;

export const listAssets = (filters: AssetFilters, cursor?: string, signal?: AbortSignal) =>
  api<AssetList>('/api/v1/assets', { query: { ...filters, limit: PAGE_SIZE, cursor }, signal });

/** Pages of 200, newest first; the list fetches the next page as it scrolls near the end. */
export const assetsQuery = (filters: AssetFilters) =>
  infiniteQueryOptions({
    queryKey: wsKey('assets', 'list', filters),
    queryFn: ({ pageParam, signal }) => listAssets(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAssets = (filters: AssetFilters) => useInfiniteQuery(assetsQuery(filters));
