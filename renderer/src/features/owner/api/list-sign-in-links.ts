import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { List, SignInLink } from '../../../api/types';

/** Links minted without a mailer, for the owner to pass on by hand. */
export const listSignInLinks = (signal?: AbortSignal) =>
  api<List<SignInLink>>('/api/v1/sign-in-links', { signal, noWorkspace: true });

export const signInLinksQuery = () =>
  queryOptions({
    queryKey: ['owner', 'sign-in-links'],
    queryFn: ({ signal }) => listSignInLinks(signal),
    select: (l) => l.data,
    refetchInterval: 10_000,
  });

export const useSignInLinks = () => useQuery(signInLinksQuery());
