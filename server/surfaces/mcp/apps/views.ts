// MCP Apps (`@modelcontextprotocol/ext-apps`): the publish and preview tools of charts, diagrams and artifacts name
// a UI resource, so a host that renders MCP Apps shows the result in the conversation; hosts without it get the
// structured result and the page URL. Views attach by tool name, so a kind's tools get theirs as soon as they
// are in the route table.

import {
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  registerAppResource,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { KeyViewer } from '../caller.js';
import { mayUse } from '../caller.js';
import type { McpCatalog } from '../session-server.js';
import { viewHtml } from './view-html.js';

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

/** Names each view on the definitions of its tools that exist; answers the views in use. */
export function attachViews(catalog: McpCatalog, views: AppView[] = APP_VIEWS): AppView[] {
  const used = views
    .filter((view) => view.tools.some((name) => catalog.definitions.has(name)))
    .map((view) => ({
      ...view,
      previewTool:
        view.previewTool && catalog.definitions.has(view.previewTool) ? view.previewTool : undefined,
    }));
  for (const view of used)
    for (const name of view.tools) {
      const definition = catalog.definitions.get(name);
      if (!definition) continue;
      const ui = { resourceUri: view.uri };
      // both spellings: the current `ui` object and the older flat key some hosts still read
      catalog.definitions.set(name, {
        ...definition,
        _meta: { ...definition._meta, ui, [RESOURCE_URI_META_KEY]: view.uri },
      });
    }
  const extend = catalog.extend;
  catalog.extend = (server, viewer) => {
    extend?.(server, viewer);
    registerViews(server, viewer, used);
  };
  return used;
}

function registerViews(server: McpServer, viewer: KeyViewer, views: AppView[]): void {
  for (const view of views.filter((v) => mayUse(viewer, v.service)))
    registerAppResource(
      server,
      `view_${view.kind}`,
      view.uri,
      {
        title: view.title,
        description: `Shows ${view.tools.join(', ')} results`,
        mimeType: RESOURCE_MIME_TYPE,
      },
      async () => {
        const { html } = await viewHtml(view);
        return {
          contents: [
            {
              uri: view.uri,
              mimeType: RESOURCE_MIME_TYPE,
              text: html,
              // nothing to load from anywhere: the rendering arrives with the tool result
              _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
            },
          ],
        };
      },
    );
}
