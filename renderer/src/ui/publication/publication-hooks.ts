// The API hooks each publishing feature (diagrams, charts, artifacts) hands the shared browser and panel.
import type {
  InfiniteData,
  UseInfiniteQueryResult,
  UseMutationResult,
  UseQueryResult,
} from '@tanstack/react-query';
import type {
  Publication,
  PublicationDetail,
  PublicationFilters,
  PublicationVersion,
  Visibility,
} from '../../api/types';

type ListPage<T> = { data: T[]; nextCursor: string | null };

export type PublicationHooks = {
  useList: (filters: PublicationFilters) => UseInfiniteQueryResult<InfiniteData<ListPage<Publication>>>;
  useOne: (slug: string, version?: number) => UseQueryResult<PublicationDetail>;
  useVersions: (slug: string) => UseQueryResult<PublicationVersion[]>;
  useVisibility: () => UseMutationResult<Publication, Error, { slug: string; visibility: Visibility }>;
  useArchive: () => UseMutationResult<Publication, Error, { slug: string; archived: boolean }>;
};
