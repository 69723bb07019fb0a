import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ApiKey } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';
import type { KeyInput } from './create-key';

export const updateKey = ({ id, ...body }: Partial<KeyInput> & { id: string }) =>
  api<ApiKey>(`/api/v1/api-keys/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export function useUpdateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateKey,
    onSuccess: () => client.invalidateQueries({ queryKey: wsKey('api-keys') }),
  });
}
