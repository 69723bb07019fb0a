import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client';

export const signOut = () => api<void>('/auth/sign-out', { method: 'POST', noWorkspace: true });

/** Ends the session, then loads `/`, which the server answers with the sign-in prompt. */
export const useSignOut = () =>
  useMutation({ mutationFn: signOut, onSuccess: () => window.location.assign('/') });
