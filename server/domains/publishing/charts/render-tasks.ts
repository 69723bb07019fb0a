/** The chart tasks a render worker runs (render-pool.ts loads this module in each worker). */
import { checkChart, renderChart } from './render-chart.js';

export const renderTasks = {
  'charts.render': renderChart,
  /** Checks only (safety and schema), for publishing a chart whose data is not rendered yet. */
  'charts.check': (spec: unknown) => checkChart(spec),
};
