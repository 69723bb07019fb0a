import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Profile } from '../../../api/types';

export const updateProfile = (body: { name: string }) =>
  api<Profile>('/api/v1/me', { method: 'PATCH', body, noWorkspace: true });

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => client.invalidateQueries({ queryKey: ['me'] }),
  });
}
