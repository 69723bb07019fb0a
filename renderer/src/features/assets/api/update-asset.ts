import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { keepAnswer } from '../../../api/keep-answer';
import type { Asset } from '../../../api/types';
import { wsKey } from '../../../api/workspace-store';

export type AssetPatch = { id: string; displayName?: string; tags?: string[] };

export const updateAsset = ({ id, ...body }: AssetPatch) =>
  api<Asset>(`/api/v1/assets/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export function useUpdateAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateAsset,
    onSuccess: async (asset) => {
      await keepAnswer(client, wsKey('assets', 'one', asset.id), asset);
      return client.invalidateQueries({ queryKey: wsKey('assets', 'list') });
    },
  });
}
