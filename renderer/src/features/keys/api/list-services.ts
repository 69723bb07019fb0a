import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ServiceList } from '../../../api/types';

export const listServices = (signal?: AbortSignal) =>
  api<ServiceList>('/api/v1/services', { signal, noWorkspace: true });

export const servicesQuery = () =>
  queryOptions({
    queryKey: ['services'],
    queryFn: ({ signal }) => listServices(signal),
    staleTime: Number.POSITIVE_INFINITY,
    select: (l) => l.data,
  });

export const useServices = () => useQuery(servicesQuery());
