import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { ModelDownload } from '../../../api/types';

export const downloadModel = (name: string) =>
  api<ModelDownload>(`/api/v1/models/${encodeURIComponent(name)}/download`, { method: 'POST' });

export function useDownloadModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: downloadModel,
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}
