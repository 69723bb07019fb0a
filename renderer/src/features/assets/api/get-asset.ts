import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Asset } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export const getAsset = (id: string, signal?: AbortSignal) =>
  api<Asset>(`/api/v1/assets/${encodeURIComponent(id)}`, { signal });

export const assetQuery = (id: string) =>
  queryOptions({ queryKey: wsKey('assets', 'one', id), queryFn: ({ signal }) => getAsset(id, signal) });

/** `listed`: the row already on screen, shown at once while the full record loads. */
export const useAsset = (id: string | undefined, listed?: Asset) =>
  useQuery({ ...assetQuery(id ?? ''), enabled: Boolean(id), placeholderData: listed });
