import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { List, WorkspaceWithUsage } from '../../../api/types';

/** The owner's workspaces, where a watched folder's recordings may go (the same list the workspaces screen reads). */
export const ownWorkspacesQuery = () =>
  queryOptions({
    queryKey: ['workspaces'],
    queryFn: ({ signal }) =>
      api<List<WorkspaceWithUsage>>('/api/v1/workspaces', { signal, noWorkspace: true }),
    select: (list) => list.data,
  });

export const useOwnWorkspaces = () => useQuery(ownWorkspacesQuery());
