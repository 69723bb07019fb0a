import type { WatchedFolder, WatchedFolderList } from '@server/domains/watched-folders/schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../api/client';

export type { WatchedFolder };
export type WatchedFolders = z.infer<typeof WatchedFolderList>;

/** The instance's watched folders; polled while open, so a recording that arrives shows as it is imported. */
export const watchedFoldersQuery = () =>
  queryOptions({
    queryKey: ['watched-folders'],
    queryFn: ({ signal }) => api<WatchedFolders>('/api/v1/watched-folders', { signal, noWorkspace: true }),
    refetchInterval: 3000,
  });

export const useWatchedFolders = () => useQuery(watchedFoldersQuery());
