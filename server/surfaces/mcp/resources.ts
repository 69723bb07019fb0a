// Resources a client can attach: the reference (llms.txt, each capability's protocol notes, the diagram
// vocabulary and artifact component catalog once those routes exist), and every record a key can read as a
// template `folio://<capability>/{id}`, derived from each `<capability>_get` tool with a `<capability>_list`
// beside it. Every read runs through the backing route, so scoping and 404s are those of REST.
import { invokeRoute } from '../../http/invoke-route.js';
import { answerValue } from '../../http/json-text.js';
import { isReply } from '../../http/reply.js';
import type { ServiceName } from '../../http/viewer.js';
import type { Capability, NamedRoute } from '../capability.js';
import type { Caller } from './caller.js';
import type { McpTool, ToolCall } from './tools/tool.js';

export type Reader = Pick<ToolCall, 'deps'> & Pick<Caller, 'bearer' | 'origin'>;
export type ResourceText = { mimeType: string; text: string };

export type FixedResource = {
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  service?: ServiceName;
  read(reader: Reader): Promise<ResourceText>;
};

export type TemplateResource = {
  name: string;
  template: string;
  title: string;
  description: string;
  service?: ServiceName;
  list(reader: Reader): Promise<Array<{ uri: string; name: string }>>;
  read(value: string, reader: Reader): Promise<ResourceText>;
};

/** Reference documents that tools answer (GET, no arguments): attached when the tool exists. */
const REFERENCE_TOOLS: Record<string, { uri: string; title: string }> = {
  diagrams_vocabulary: { uri: 'folio://diagrams/vocabulary', title: 'Diagram vocabulary' },
  artifacts_components: { uri: 'folio://artifacts/components', title: 'Artifact component catalog' },
  services_list: { uri: 'folio://account/services', title: 'Services an API key can be scoped to' },
};

export function fixedResources(capabilities: Capability[], routes: NamedRoute[], tools: McpTool[]) {
  const byRouteName = new Map(routes.map((r) => [r.name, r.route]));
  const fromRoute = (name: string, uri: string, title: string, description: string): FixedResource[] => {
    const route = byRouteName.get(name);
    if (!route) return [];
    const read = async ({ bearer, origin, deps }: Reader) =>
      asText(await invokeRoute(route, call(bearer, origin, {}), deps));
    return [{ name, uri, title, description, mimeType: 'text/markdown', read }];
  };
  const docs = capabilities
    .filter((c) => c.docs)
    .map(
      (c): FixedResource => ({
        name: `reference_${c.name}`,
        uri: `folio://reference/${c.name}`,
        title: `${c.title}: protocol notes`,
        description: `How to use ${c.name} well: formats, protocols and hints beyond each route's schema`,
        mimeType: 'text/markdown',
        read: async () => ({ mimeType: 'text/markdown', text: c.docs ?? '' }),
      }),
    );
  const toolBacked = tools.flatMap((tool): FixedResource[] => {
    const ref = REFERENCE_TOOLS[tool.name];
    if (!ref) return [];
    const read = async (reader: Reader) =>
      asText(await tool.call({}, { ...reader, signal: new AbortController().signal, progress: () => {} }));
    return [
      {
        name: tool.name,
        ...ref,
        description: tool.definition.description ?? ref.title,
        service: tool.service,
        mimeType: 'application/json',
        read,
      },
    ];
  });
  return [
    ...fromRoute(
      'llmsTxt',
      'folio://reference/llms.txt',
      'Folio API reference (llms.txt)',
      'Every route, who may call it and its service',
    ),
    ...fromRoute(
      'llmsFullTxt',
      'folio://reference/llms-full.txt',
      'Folio API reference with schemas (llms-full.txt)',
      'llms.txt with every schema and protocol note inline',
    ),
    ...docs,
    ...toolBacked,
  ];
}

/** `folio://<capability>/{param}` for each `<capability>_get` tool on `/…/:param` that has a `_list` tool. */
export function templateResources(tools: McpTool[], routes: NamedRoute[]): TemplateResource[] {
  const byTool = new Map(tools.map((t) => [t.name, t]));
  return routes.flatMap(({ route }): TemplateResource[] => {
    const match = /^(\w+)_get$/.exec(route.tool ?? '');
    const param = /\/:(\w+)$/.exec(route.path)?.[1];
    const get = byTool.get(route.tool ?? '');
    const list = match && byTool.get(`${match[1]}_list`);
    if (!match || !param || !get || !list) return [];
    const capability = match[1];
    const reader = (r: Reader) => ({ ...r, signal: new AbortController().signal, progress: () => {} });
    return [
      {
        name: capability,
        template: `folio://${capability}/{${param}}`,
        title: `${capability[0].toUpperCase()}${capability.slice(1)} by ${param}`,
        description: get.definition.description ?? '',
        service: get.service,
        async list(r) {
          // A key whose service was withdrawn since the session began lists nothing here rather than failing.
          const page = answerValue(await list.call({ limit: 50 }, reader(r)).catch(() => ({}))) as {
            data?: Array<Record<string, unknown>>;
          };
          return (page.data ?? []).map((row) => ({
            uri: `folio://${capability}/${encodeURIComponent(String(row[param]))}`,
            name: String(row.title ?? row.displayName ?? row[param]),
          }));
        },
        read: async (value, r) => asText(await get.call({ [param]: value }, reader(r))),
      },
    ];
  });
}

const call = (bearer: string, origin: string, params: Record<string, string>) => ({
  credentials: { bearer },
  params,
  query: {},
  readBody: async () => undefined,
  origin,
});

function asText(result: unknown): ResourceText {
  if (isReply(result) && result.kind === 'bytes')
    return { mimeType: result.contentType.split(';')[0], text: Buffer.from(result.body).toString('utf8') };
  return { mimeType: 'application/json', text: JSON.stringify(result, null, 1) };
}
