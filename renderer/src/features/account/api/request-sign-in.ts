import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client';

export const requestSignIn = (email: string) =>
  api<{ status: 'link-sent'; email: string }>('/auth/sign-in', {
    method: 'POST',
    body: { email },
    noWorkspace: true,
  });

export const useRequestSignIn = () => useMutation({ mutationFn: requestSignIn });
