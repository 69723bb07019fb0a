import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Workspace } from '../../../api/types';

export const createWorkspace = (name: string) =>
  api<Workspace>('/api/v1/workspaces', { method: 'POST', body: { name }, noWorkspace: true });

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWorkspace,
    onSuccess: () => client.invalidateQueries({ queryKey: ['workspaces'] }),
  });
}
