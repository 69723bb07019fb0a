import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { wsKey } from '../../../api/workspace-store';

/** Deletes the transcript and its audio asset (`deleteTranscript` in server/domains/transcripts/routes.ts). */
export const deleteTranscript = (id: string) =>
  api<void>(`/api/v1/transcripts/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteTranscript() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTranscript,
    onSuccess: (_v, id) => {
      client.removeQueries({ queryKey: wsKey('transcripts', 'one', id) });
      return Promise.all([
        client.invalidateQueries({ queryKey: wsKey('transcripts', 'list') }),
        client.invalidateQueries({ queryKey: wsKey('assets') }),
      ]);
    },
  });
}
