import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { TranscriptList, TranscriptStatus } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export const listTranscripts = (
  status: TranscriptStatus | undefined,
  cursor?: string,
  signal?: AbortSignal,
) => api<TranscriptList>('/api/v1/transcripts', { query: { status, limit: 100, cursor }, signal });

const running = (list: TranscriptList[] | undefined) =>
  list?.some((page) => page.data.some((t) => t.status === 'pending' || t.status === 'processing')) ?? false;

/** Refreshes every 1.5 s while anything is pending or processing, so status and progress stay live. */
export const transcriptsQuery = (status?: TranscriptStatus) =>
  infiniteQueryOptions({
    queryKey: wsKey('transcripts', 'list', status ?? 'all'),
    queryFn: ({ pageParam, signal }) => listTranscripts(status, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => (running(query.state.data?.pages) ? 1500 : false),
  });

export const useTranscripts = (status?: TranscriptStatus) => useInfiniteQuery(transcriptsQuery(status));
