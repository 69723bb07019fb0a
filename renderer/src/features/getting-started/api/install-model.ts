import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

/** Downloads a catalog model, or imports a file on this machine, then makes it active when it is the first. */
export const startDownload = (name: string) =>
  api<unknown>(`/api/v1/models/${encodeURIComponent(name)}/download`, { method: 'POST' });
export const importFile = (path: string) =>
  api<{ file: string }>('/api/v1/models/import', { method: 'POST', body: { path } });
export const activate = (name: string) =>
  api<unknown>('/api/v1/models/active', { method: 'PUT', body: { name } });

export function useInstallModel() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['models'] });
  return {
    download: useMutation({ mutationFn: startDownload, onSuccess: refresh }),
    importPath: useMutation({
      mutationFn: async (path: string) => activate((await importFile(path)).file),
      onSuccess: refresh,
    }),
    activate: useMutation({ mutationFn: activate, onSuccess: refresh }),
  };
}
