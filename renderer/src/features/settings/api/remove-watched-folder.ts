import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

export const removeWatchedFolder = (folderId: string) =>
  api<void>(`/api/v1/watched-folders/${encodeURIComponent(folderId)}`, {
    method: 'DELETE',
    noWorkspace: true,
  });

export function useRemoveWatchedFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeWatchedFolder,
    onSuccess: () => client.invalidateQueries({ queryKey: ['watched-folders'] }),
  });
}
