/** The diagram tasks a render worker runs (render-pool.ts loads this module in each worker). */
import { layoutGraph } from './layout.js';
import type { LayoutRequest, LayoutResult } from './layout-schema.js';
import { layoutSvg } from './layout-svg.js';
import { renderDiagram } from './render-diagram.js';

export async function runLayout(request: LayoutRequest): Promise<LayoutResult> {
  const { sized: _sized, top: _top, ...result } = await layoutGraph(request);
  const laid = { ...result, sized: _sized, top: _top };
  return request.format === 'svg' ? { ...result, svg: layoutSvg(request, laid) } : result;
}

export const renderTasks = {
  'diagrams.render': renderDiagram,
  'diagrams.layout': runLayout,
};
