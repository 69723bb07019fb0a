import type { AddWatchedFolderBody, WatchedFolder } from '@server/domains/watched-folders/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

export type NewWatchedFolder = AddWatchedFolderBody & { workspaceId: string };

/** Watches a folder; its recordings go to `workspaceId` (sent as the request's workspace). */
export const addWatchedFolder = ({ workspaceId, ...body }: NewWatchedFolder) =>
  api<WatchedFolder>('/api/v1/watched-folders', { method: 'POST', body, workspace: workspaceId });

export function useAddWatchedFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addWatchedFolder,
    onSuccess: () => client.invalidateQueries({ queryKey: ['watched-folders'] }),
  });
}
