import type { Conflict, ResolveBody } from '@server/domains/sync/desktop/screen-schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

export type Keep = z.output<typeof ResolveBody>['keep'];

export const resolveConflict = ({ id, keep }: { id: string; keep: Keep }) =>
  api<Conflict>(`/api/v1/sync/conflicts/${encodeURIComponent(id)}/resolve`, {
    method: 'POST',
    body: { keep },
  });

export function useResolveConflict() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resolveConflict,
    onSuccess: () => client.invalidateQueries({ queryKey: wsKey('sync') }),
  });
}
