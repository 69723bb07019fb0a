import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

export const setActiveModel = (name: string) =>
  api<unknown>('/api/v1/models/active', { method: 'PUT', body: { name } });

export function useSetActiveModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setActiveModel,
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}
