import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

export type ImportedModel = { file: string; path: string };

/** Copies a ggml model file from a path on this machine into the data folder. */
export const importModel = (body: { path: string; file?: string }) =>
  api<ImportedModel>('/api/v1/models/import', { method: 'POST', body });

export function useImportModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importModel,
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}
