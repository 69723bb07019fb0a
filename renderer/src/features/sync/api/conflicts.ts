import type { ConflictList, ConflictListQuery } from '@server/domains/sync/desktop/screen-schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

export type ConflictStatus = z.output<typeof ConflictListQuery>['status'];

export const listConflicts = (status: ConflictStatus, signal?: AbortSignal) =>
  api<z.output<typeof ConflictList>>('/api/v1/sync/conflicts', { query: { status }, signal });

export const conflictsQuery = (status: ConflictStatus) =>
  queryOptions({
    queryKey: wsKey('sync', 'conflicts', status),
    queryFn: ({ signal }) => listConflicts(status, signal),
    select: (list) => list.data,
  });

export const useConflicts = (status: ConflictStatus) => useQuery(conflictsQuery(status));
