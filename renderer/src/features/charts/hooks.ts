import type { PublicationHooks } from '../../ui/publication/publication-hooks';
import { useArchiveChart } from './api/archive-chart';
import { useChart } from './api/get-chart';
import { useChartVersions } from './api/list-chart-versions';
import { useCharts } from './api/list-charts';
import { useChartVisibility } from './api/set-chart-visibility';

export const chartHooks: PublicationHooks = {
  useList: useCharts,
  useOne: useChart,
  useVersions: useChartVersions,
  useVisibility: useChartVisibility,
  useArchive: useArchiveChart,
};
