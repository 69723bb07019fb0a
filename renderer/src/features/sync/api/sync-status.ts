import type { SyncStatus } from '@server/domains/sync/desktop/screen-schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

export const getSyncStatus = (signal?: AbortSignal) => api<SyncStatus>('/api/v1/sync/status', { signal });

/** Polls every second while a run is under way, so each phase's progress moves on screen. */
export const syncStatusQuery = () =>
  queryOptions({
    queryKey: wsKey('sync', 'status'),
    queryFn: ({ signal }) => getSyncStatus(signal),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });

export const useSyncStatus = () => useQuery(syncStatusQuery());
