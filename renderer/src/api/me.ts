import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Me } from './types';

/** The signed-in person (or `{ isApproved: false }`); account-wide, so sent without a workspace. */
export const getMe = (signal?: AbortSignal) => api<Me>('/api/v1/me', { signal, noWorkspace: true });

export const meQuery = () =>
  queryOptions({ queryKey: ['me'], queryFn: ({ signal }) => getMe(signal), staleTime: 60_000 });

export const useMe = () => useQuery(meQuery());
