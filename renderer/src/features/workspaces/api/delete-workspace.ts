import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { currentWorkspaceId, selectWorkspace } from '../../../api/workspace-store';

export const deleteWorkspace = (id: string) =>
  api<void>(`/api/v1/workspaces/${encodeURIComponent(id)}`, { method: 'DELETE', noWorkspace: true });

export function useDeleteWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkspace,
    onSuccess: (_v, id) => {
      if (currentWorkspaceId() === id) selectWorkspace(null);
      client.removeQueries({ queryKey: ['ws', id] });
      return client.invalidateQueries({ queryKey: ['workspaces'] });
    },
  });
}
