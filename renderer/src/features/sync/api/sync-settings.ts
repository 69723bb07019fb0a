import type { SyncSettings } from '@server/domains/sync/desktop/screen-schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

export const getSyncSettings = (signal?: AbortSignal) =>
  api<SyncSettings>('/api/v1/sync/settings', { signal });

export const syncSettingsQuery = () =>
  queryOptions({ queryKey: wsKey('sync', 'settings'), queryFn: ({ signal }) => getSyncSettings(signal) });

export const useSyncSettings = () => useQuery(syncSettingsQuery());
