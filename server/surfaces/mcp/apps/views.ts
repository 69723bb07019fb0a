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
import type { KeyViewer } from '../caller.js';
import { mayUse } from '../caller.js';
import type { McpCatalog } from '../session-server.js';
import { APP_VIEWS, type AppView } from './app-views.js';
import { viewHtml } from './view-html.js';

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
