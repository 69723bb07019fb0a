import { useSetVisibility } from '../../../api/publications';

/** POST /api/v1/charts/:slug/visibility (session only). */
export const useChartVisibility = () => useSetVisibility('charts');
