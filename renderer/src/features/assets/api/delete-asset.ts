import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

export const deleteAsset = (id: string) =>
  api<void>(`/api/v1/assets/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAsset,
    onSuccess: (_v, id) => {
      client.removeQueries({ queryKey: wsKey('assets', 'one', id) });
      return client.invalidateQueries({ queryKey: wsKey('assets', 'list') });
    },
  });
}
