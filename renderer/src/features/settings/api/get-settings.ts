import type { SettingsView } from '@server/domains/settings/schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';

export type Settings = SettingsView;

export const getSettings = (signal?: AbortSignal) =>
  api<Settings>('/api/v1/settings', { signal, noWorkspace: true });

export const settingsQuery = () =>
  queryOptions({ queryKey: ['settings'], queryFn: ({ signal }) => getSettings(signal) });

export const useSettings = () => useQuery(settingsQuery());
