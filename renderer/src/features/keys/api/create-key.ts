import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { CreatedApiKey, ServiceName } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export type KeyInput = { name: string; services: ServiceName[] };

export const createKey = (body: KeyInput) => api<CreatedApiKey>('/api/v1/api-keys', { method: 'POST', body });

export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createKey,
    onSuccess: () => client.invalidateQueries({ queryKey: wsKey('api-keys') }),
  });
}
