import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { CreatedApiKey } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

/** A first key for an agent: assets and transcription, the two services every agent starts with. */
export const createFirstKey = () =>
  api<CreatedApiKey>('/api/v1/api-keys', {
    method: 'POST',
    body: { name: 'My first agent', services: ['assets', 'transcription', 'realtime'] },
  });

export function useCreateFirstKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createFirstKey,
    onSuccess: () => client.invalidateQueries({ queryKey: wsKey('api-keys') }),
  });
}
