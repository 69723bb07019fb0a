import { useInfiniteQuery } from '@tanstack/react-query';
import { publicationsQuery } from '../../../api/publications';
import type { PublicationFilters } from '../../../api/types';

/** GET /api/v1/charts with q, tagcharts and includeArchived. */
export const chartsQuery = (filters: PublicationFilters) => publicationsQuery('charts', filters);
export const useCharts = (filters: PublicationFilters) => useInfiniteQuery(chartsQuery(filters));
