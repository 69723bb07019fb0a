import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Workspace } from '../../../api/types';

export const renameWorkspace = ({ id, name }: { id: string; name: string }) =>
  api<Workspace>(`/api/v1/workspaces/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { name },
    noWorkspace: true,
  });

export function useRenameWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: renameWorkspace,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['workspaces'] }),
        client.invalidateQueries({ queryKey: ['me'] }),
      ]),
  });
}
