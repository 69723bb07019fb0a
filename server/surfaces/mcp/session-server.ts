// One MCP session's server: the tools (listed per request from the key's services), and the resources and
// prompts the key's services allowed when the session began (reading any of them is authorized again).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { InvokeDeps } from '../../http/invoke-route.js';
import type { Logger } from '../../log.js';
import { asMcpError, callerOf, depsFor, type KeyViewer, mayUse } from './caller.js';
import type { FolioPrompt } from './prompts.js';
import type { FixedResource, Reader, TemplateResource } from './resources.js';
import { serveTools } from './serve-tools.js';
import type { McpTool } from './tools/tool.js';

export type McpCatalog = {
  tools: McpTool[];
  /** Tool definitions as this server lists them (with MCP Apps views attached); defaults to the tool's own. */
  definitions: Map<string, Tool>;
  fixed: FixedResource[];
  templates: TemplateResource[];
  prompts: FolioPrompt[];
  /** Extra registrations (MCP Apps UI resources). */
  extend?: (server: McpServer, viewer: KeyViewer) => void;
};

export type SessionServerDeps = { deps: InvokeDeps; log: Logger; version: string };

const INSTRUCTIONS = `Folio runs on this machine: files (assets) with shareable links, local Whisper transcription, and published charts, diagrams and pages. Tools are named <capability>_<verb>; you see the ones this API key's services allow. Answer with the URLs Folio returns (urls.page, urls.file) rather than file contents. The whole API is described in the resource folio://reference/llms.txt.`;

export function createSessionServer(catalog: McpCatalog, viewer: KeyViewer, options: SessionServerDeps) {
  const { deps, log, version } = options;
  // Resources and prompts are declared even when a key has none of them: clients get empty lists, not errors.
  const mcp = new McpServer(
    { name: 'folio', title: 'Folio', version },
    {
      instructions: INSTRUCTIONS,
      capabilities: { resources: { listChanged: false }, prompts: { listChanged: false } },
    },
  );
  serveTools(mcp.server, { tools: catalog.tools, definitions: catalog.definitions, deps, log });
  const allowed = <T extends { service?: McpTool['service'] }>(items: T[]) =>
    items.filter((item) => mayUse(viewer, item.service));
  const readerOf = (extra: Parameters<typeof callerOf>[0]): Reader => {
    const caller = callerOf(extra);
    return { ...caller, deps: depsFor(caller, deps) };
  };
  const failing = (error: unknown) => asMcpError(error, log);

  for (const r of allowed(catalog.fixed))
    mcp.registerResource(
      r.name,
      r.uri,
      { title: r.title, description: r.description, mimeType: r.mimeType },
      async (uri, extra) => {
        const text = await r.read(readerOf(extra)).catch((e) => Promise.reject(failing(e)));
        return { contents: [{ uri: uri.href, ...text }] };
      },
    );

  const templates = allowed(catalog.templates);
  for (const t of templates) {
    const list = async (extra: Parameters<typeof readerOf>[0]) => ({
      resources: (await t.list(readerOf(extra))).map((r) => ({ ...r, mimeType: 'application/json' })),
    });
    mcp.registerResource(
      t.name,
      new ResourceTemplate(t.template, { list }),
      { title: t.title, description: t.description, mimeType: 'application/json' },
      async (uri, variables, extra) => {
        const raw = Object.values(variables)[0];
        const value = decodeURIComponent(String(Array.isArray(raw) ? raw[0] : raw));
        const text = await t.read(value, readerOf(extra)).catch((e) => Promise.reject(failing(e)));
        return { contents: [{ uri: uri.href, ...text }] };
      },
    );
  }

  const usable = new Set(allowed(catalog.tools).map((tool) => tool.name));
  for (const p of catalog.prompts.filter((p) => p.needs.every((name) => usable.has(name))))
    mcp.registerPrompt(
      p.name,
      { title: p.title, description: p.description, argsSchema: p.args },
      async (args, extra) => ({
        messages: await p.messages(args, readerOf(extra), templates).catch((e) => Promise.reject(failing(e))),
      }),
    );

  catalog.extend?.(mcp, viewer);
  return mcp;
}
