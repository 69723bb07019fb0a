import { useInfiniteQuery } from '@tanstack/react-query';
import { publicationsQuery } from '../../../api/publications';
import type { PublicationFilters } from '../../../api/types';

/** GET /api/v1/diagrams with q, tag, kind and includeArchived. */
export const diagramsQuery = (filters: PublicationFilters) => publicationsQuery('diagrams', filters);
export const useDiagrams = (filters: PublicationFilters) => useInfiniteQuery(diagramsQuery(filters));
