import type { SettingsView, UpdateSettingsBody } from '@server/domains/settings/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';

export type SettingsChange = UpdateSettingsBody;

export const updateSettings = (body: SettingsChange) =>
  api<SettingsView>('/api/v1/settings', { method: 'PATCH', body, noWorkspace: true });

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: async (view) => {
      await keepAnswer(client, ['settings'], view);
      void client.invalidateQueries({ queryKey: ['models'] }); // the device in use may change at once
    },
  });
}
