import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ApiKey, List, ModelOverview } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

/** What is set up already: a usable model (instance-wide) and keys in this workspace. Shares the Models and Keys caches. */
export const getModelOverview = (signal?: AbortSignal) => api<ModelOverview>('/api/v1/models', { signal });
export const getKeys = (signal?: AbortSignal) => api<List<ApiKey>>('/api/v1/api-keys', { signal });

export const useModelStatus = () =>
  useQuery({
    queryKey: ['models'],
    queryFn: ({ signal }) => getModelOverview(signal),
    refetchInterval: (query) =>
      query.state.data?.downloads.some((d) => d.status === 'downloading') ? 1000 : false,
  });

export const useKeyCount = () =>
  useQuery({
    queryKey: wsKey('api-keys'),
    queryFn: ({ signal }) => getKeys(signal),
    select: (list) => list.data.length,
  });
