import type { SettingsView } from '@server/domains/settings/schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { DevicePreference } from '../../../api/transcription-device';

/** The settings view; `whisperDevice` is absent on a server from before issue #23. */
export type Settings = SettingsView & {
  running: SettingsView['running'] & { whisperDevice?: DevicePreference };
  saved: (NonNullable<SettingsView['saved']> & { whisperDevice?: DevicePreference }) | null;
};

export const getSettings = (signal?: AbortSignal) =>
  api<Settings>('/api/v1/settings', { signal, noWorkspace: true });

export const settingsQuery = () =>
  queryOptions({ queryKey: ['settings'], queryFn: ({ signal }) => getSettings(signal) });

export const useSettings = () => useQuery(settingsQuery());
