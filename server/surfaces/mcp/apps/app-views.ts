// The views MCP Apps hosts show (views.ts attaches them; view-html.ts renders their page): one per kind.
import type { ServiceName } from '../../../http/viewer.js';

export type AppView = {
  kind: 'chart' | 'diagram' | 'artifact';
  uri: string;
  title: string;
  service: ServiceName;
  /** Tools whose results the view shows. */
  tools: string[];
  /** The tool the view calls to render a published document it was handed (publish, get, update results);
   * used only when it is in the route table. */
  previewTool?: string;
};

export const APP_VIEWS: AppView[] = [
  {
    kind: 'chart',
    uri: 'ui://folio/chart.html',
    title: 'Folio chart',
    service: 'charts',
    tools: ['charts_publish', 'charts_update', 'charts_get', 'charts_preview'],
    previewTool: 'charts_preview',
  },
  {
    kind: 'diagram',
    uri: 'ui://folio/diagram.html',
    title: 'Folio diagram',
    service: 'diagrams',
    tools: ['diagrams_publish', 'diagrams_update', 'diagrams_get', 'diagrams_preview', 'diagrams_layout'],
    previewTool: 'diagrams_preview',
  },
  {
    kind: 'artifact',
    uri: 'ui://folio/artifact.html',
    title: 'Folio page',
    service: 'artifacts',
    tools: ['artifacts_publish', 'artifacts_update', 'artifacts_get'],
    // none yet: the page renders behind the page gate only; the view links to it until a preview route exists
    previewTool: 'artifacts_preview',
  },
];
