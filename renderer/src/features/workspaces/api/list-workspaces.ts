import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { List, WorkspaceWithUsage } from '../../../api/types';

/** The person's workspaces with usage; account-wide (no X-Folio-Workspace). */
export const listWorkspaces = (signal?: AbortSignal) =>
  api<List<WorkspaceWithUsage>>('/api/v1/workspaces', { signal, noWorkspace: true });

export const workspacesQuery = () =>
  queryOptions({
    queryKey: ['workspaces'],
    queryFn: ({ signal }) => listWorkspaces(signal),
    select: (list) => list.data,
  });

export const useWorkspaces = () => useQuery(workspacesQuery());
