import type { SettingsView, UpdateSettingsBody } from '@server/domains/settings/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { DevicePreference } from '../../../api/transcription-device';

/** `whisperDevice` is sent only to a server whose settings report it (issue #23). */
export type SettingsChange = UpdateSettingsBody & { whisperDevice?: DevicePreference };

export const updateSettings = (body: SettingsChange) =>
  api<SettingsView>('/api/v1/settings', { method: 'PATCH', body, noWorkspace: true });

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (view) => {
      client.setQueryData(['settings'], view);
      void client.invalidateQueries({ queryKey: ['models'] }); // the device in use may change at once
    },
  });
}
