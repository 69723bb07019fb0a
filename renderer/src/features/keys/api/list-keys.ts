import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ApiKey, List } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export const listKeys = (signal?: AbortSignal) => api<List<ApiKey>>('/api/v1/api-keys', { signal });

export const keysQuery = () =>
  queryOptions({
    queryKey: wsKey('api-keys'),
    queryFn: ({ signal }) => listKeys(signal),
    select: (l) => l.data,
  });

export const useKeys = () => useQuery(keysQuery());
