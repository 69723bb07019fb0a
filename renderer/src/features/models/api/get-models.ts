import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ModelOverview } from '../../../api/types';

export const getModels = (signal?: AbortSignal) => api<ModelOverview>('/api/v1/models', { signal });

/** Instance-wide (models are shared by every workspace); polls while a download runs. */
export const modelsQuery = () =>
  queryOptions({
    queryKey: ['models'],
    queryFn: ({ signal }) => getModels(signal),
    refetchInterval: (query) =>
      query.state.data?.downloads.some((d) => d.status === 'downloading') ? 1000 : false,
  });

export const useModels = () => useQuery(modelsQuery());
