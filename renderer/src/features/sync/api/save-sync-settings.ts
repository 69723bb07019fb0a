import type { SyncSettings, SyncSettingsBody } from '@server/domains/sync/desktop/screen-schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';
import { wsKey } from '../../../api/workspace-store';

/** Saves sync settings; a URL or key is tried against the hosted Folio before anything is kept. */
export const saveSyncSettings = (body: SyncSettingsBody) =>
  api<SyncSettings>('/api/v1/sync/settings', { method: 'PUT', body });

export function useSaveSyncSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSyncSettings,
    onSuccess: async (settings) => {
      await keepAnswer(client, wsKey('sync', 'settings'), settings);
      return client.invalidateQueries({ queryKey: wsKey('sync', 'status') });
    },
  });
}
