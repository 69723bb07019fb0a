import { useQuery } from '@tanstack/react-query';
import { publicationQuery } from '../../../api/publications';

/** GET /api/v1/charts/:slug?version=N */
export const chartQuery = (slug: string, version?: number) => publicationQuery('charts', slug, version);
export const useChart = (slug: string, version?: number) => useQuery(chartQuery(slug, version));
