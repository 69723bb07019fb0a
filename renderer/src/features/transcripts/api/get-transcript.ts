import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Transcript } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export const getTranscript = (id: string, signal?: AbortSignal) =>
  api<Transcript>(`/api/v1/transcripts/${encodeURIComponent(id)}`, { signal });

export const transcriptQuery = (id: string) =>
  queryOptions({
    queryKey: wsKey('transcripts', 'one', id),
    queryFn: ({ signal }) => getTranscript(id, signal),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'pending' || status === 'processing' ? 1000 : false;
    },
  });

export const useTranscript = (id: string | undefined) =>
  useQuery({ ...transcriptQuery(id ?? ''), enabled: Boolean(id) });
