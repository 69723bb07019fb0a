import { useInfiniteQuery } from '@tanstack/react-query';
import { publicationsQuery } from '../../../api/publications';
import type { PublicationFilters } from '../../../api/types';

/** GET /api/v1/artifacts with q, tagartifacts and includeArchived. */
export const artifactsQuery = (filters: PublicationFilters) => publicationsQuery('artifacts', filters);
export const useArtifacts = (filters: PublicationFilters) => useInfiniteQuery(artifactsQuery(filters));
