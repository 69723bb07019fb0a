import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

export const revokeKey = (id: string) =>
  api<void>(`/api/v1/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeKey,
    onSuccess: () => client.invalidateQueries({ queryKey: wsKey('api-keys') }),
  });
}
