import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';
import type { Transcript } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export const retryTranscript = (id: string) =>
  api<Transcript>(`/api/v1/transcripts/${encodeURIComponent(id)}/retry`, { method: 'POST' });

export function useRetryTranscript() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: retryTranscript,
    onSuccess: async (transcript) => {
      await keepAnswer(client, wsKey('transcripts', 'one', transcript.id), transcript);
      return client.invalidateQueries({ queryKey: wsKey('transcripts', 'list') });
    },
  });
}
