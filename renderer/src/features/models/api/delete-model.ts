import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

export const deleteModel = (file: string) =>
  api<void>(`/api/v1/models/${encodeURIComponent(file)}`, { method: 'DELETE' });

export function useDeleteModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteModel,
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}
