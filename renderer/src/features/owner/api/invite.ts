import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { WaitlistEntry } from '../../../api/types';

/** An invited email's next sign-in is approved (README.md, invite-only sign-in). */
export const invite = (email: string) =>
  api<WaitlistEntry>('/api/v1/waitlist/invite', { method: 'POST', body: { email }, noWorkspace: true });

export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: invite,
    onSuccess: () => client.invalidateQueries({ queryKey: ['owner'] }),
  });
}
