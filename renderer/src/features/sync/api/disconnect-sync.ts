import type { SyncSettings } from '@server/domains/sync/desktop/screen-schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';
import { wsKey } from '../../../api/workspace-store';

/** Stops syncing this workspace and forgets its key; what was synced stays on both sides. */
export const disconnectSync = () => api<SyncSettings>('/api/v1/sync/settings', { method: 'DELETE' });

export function useDisconnectSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: disconnectSync,
    onSuccess: async (settings) => {
      await keepAnswer(client, wsKey('sync', 'settings'), settings);
      return client.invalidateQueries({ queryKey: wsKey('sync', 'status') });
    },
  });
}
