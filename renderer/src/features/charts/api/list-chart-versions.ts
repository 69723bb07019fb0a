import { useQuery } from '@tanstack/react-query';
import { versionsQuery } from '../../../api/publications';

/** GET /api/v1/charts/:slug/versions */
export const chartVersionsQuery = (slug: string) => versionsQuery('charts', slug);
export const useChartVersions = (slug: string) => useQuery(chartVersionsQuery(slug));
