import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Asset } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

/** The transcript's audio (its serve URL streams with Range, so the player can seek). */
export const getAudioAsset = (id: string, signal?: AbortSignal) =>
  api<Asset>(`/api/v1/assets/${encodeURIComponent(id)}`, { signal });

export const audioAssetQuery = (id: string) =>
  queryOptions({
    queryKey: wsKey('assets', 'one', id),
    queryFn: ({ signal }) => getAudioAsset(id, signal),
    staleTime: 60_000,
  });

export const useAudioAsset = (id: string | undefined) =>
  useQuery({ ...audioAssetQuery(id ?? ''), enabled: Boolean(id) });
