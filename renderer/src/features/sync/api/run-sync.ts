import type { SyncStatus } from '@server/domains/sync/desktop/screen-schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';
import { wsKey } from '../../../api/workspace-store';

/** Starts a run (after the one under way, if any); the answer is the status right after the request. */
export const runSync = (body: { full?: boolean } = {}) =>
  api<SyncStatus>('/api/v1/sync/run', { method: 'POST', body });

export function useRunSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runSync,
    onSuccess: (status) => keepAnswer(client, wsKey('sync', 'status'), status),
  });
}
