import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { List, WaitlistEntry } from '../../../api/types';

export const listWaitlist = (signal?: AbortSignal) =>
  api<List<WaitlistEntry>>('/api/v1/waitlist', { signal, noWorkspace: true });

export const waitlistQuery = () =>
  queryOptions({
    queryKey: ['owner', 'waitlist'],
    queryFn: ({ signal }) => listWaitlist(signal),
    select: (l) => l.data,
    refetchInterval: 10_000,
  });

export const useWaitlist = () => useQuery(waitlistQuery());
