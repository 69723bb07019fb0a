import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';
import type { Transcript } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export const cancelTranscript = (id: string) =>
  api<Transcript>(`/api/v1/transcripts/${encodeURIComponent(id)}/cancel`, { method: 'POST' });

export function useCancelTranscript() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelTranscript,
    onSuccess: async (transcript) => {
      await keepAnswer(client, wsKey('transcripts', 'one', transcript.id), transcript);
      return client.invalidateQueries({ queryKey: wsKey('transcripts', 'list') });
    },
  });
}
