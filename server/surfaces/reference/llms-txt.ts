// /llms.txt (llmstxt.org): one section per capability, generated from the route table.
import { credentialsOf } from '../../http/define-route.js';
import type { Capability, NamedRoute } from '../capability.js';

const WHO: Record<string, string> = {
  public: 'public',
  session: 'session',
  key: 'key',
  grant: 'grant',
  workspaceOwner: 'workspace owner',
  instanceOwner: 'instance owner',
};

function who(route: NamedRoute['route']): string {
  const credentials = credentialsOf(route)
    .map((c) => WHO[c])
    .join(' or ');
  return route.service ? `${credentials}; service ${route.service}` : credentials;
}

const line = (base: string, { name, route }: NamedRoute) =>
  `- [${route.method} ${route.path}](${base}/api/v1/openapi.json#${name}): ${route.summary} (${who(route)})`;

function intro(base: string): string {
  return `# Folio

> Folio is a local-first workspace API for AI agents and people: upload and serve assets and transcribe audio with a local Whisper engine. It runs on this machine at ${base}. Every request acts on exactly one workspace.

Authenticate with an API key as \`Authorization: Bearer fk_...\`. A person creates keys in the dashboard (Settings → API keys) and picks the services each key may use: ${'`assets`, `transcription`, `realtime`, `diagrams`, `artifacts`, `charts`'}. Keep keys server-side (an environment variable), never in browser code. A key used outside its services gets 403 with \`service\` and \`enabledServices\`; another workspace's ids answer 404. Errors are always \`{ "error": "..." }\`. Lists take \`limit\` (1–200, default 50) and return \`nextCursor\`; pass it back as \`cursor\`.

What is public: serve URLs (\`/img/…\`, \`/f/…\`, \`/audio/…\`) work for anyone who has the link (the keys in them are unguessable); everything under \`/api/v1\` needs a credential. Return links to the user, not file contents.

Quick start:

    export FOLIO_KEY=fk_...            # from the dashboard
    curl -s ${base}/api/v1/me -H "Authorization: Bearer $FOLIO_KEY"
    curl -s ${base}/api/v1/uploads -H "Authorization: Bearer $FOLIO_KEY" -F file=@photo.jpg
`;
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Routes of one capability in reading order: by path, then GET before writes. */
function routesOf(routes: NamedRoute[], capability: string): NamedRoute[] {
  return routes
    .filter((r) => r.capability === capability && !r.route.hidden)
    .sort(
      (a, b) =>
        a.route.path.localeCompare(b.route.path) ||
        METHOD_ORDER.indexOf(a.route.method) - METHOD_ORDER.indexOf(b.route.method),
    );
}

export function buildLlmsTxt(capabilities: Capability[], routes: NamedRoute[], base: string): string {
  const sections = capabilities
    .map((c) => {
      const own = routesOf(routes, c.name);
      if (own.length === 0 && !c.summary) return '';
      const sockets = (c.sockets ?? []).map((s) => `- WebSocket ${s.path}: ${s.summary} (see llms-full.txt)`);
      return [
        `## ${c.title}`,
        '',
        ...(c.summary ? [c.summary, ''] : []),
        ...own.map((r) => line(base, r)),
        ...sockets,
        '',
      ].join('\n');
    })
    .filter(Boolean);
  const optional = [
    '## Optional',
    '',
    `- [OpenAPI 3.1 document](${base}/api/v1/openapi.json): every route with its request and response schemas`,
    `- [llms-full.txt](${base}/llms-full.txt): this file with each route's schemas and the protocol notes inline`,
    '',
  ].join('\n');
  return `${intro(base)}\n${sections.join('\n')}\n${optional}`;
}

export function buildLlmsFullTxt(
  capabilities: Capability[],
  routes: NamedRoute[],
  base: string,
  openapi: { paths: Record<string, Record<string, unknown>> },
  openApiPath: (path: string) => string,
): string {
  const parts = [intro(base)];
  for (const c of capabilities) {
    const own = routesOf(routes, c.name);
    if (own.length === 0 && !c.docs) continue;
    parts.push(`## ${c.title}\n`);
    if (c.docs) parts.push(`${c.docs.trim()}\n`);
    for (const r of own) {
      const op = openapi.paths[openApiPath(r.route.path)]?.[r.route.method.toLowerCase()];
      parts.push(`### ${r.route.method} ${r.route.path}\n\n${r.route.summary}. Who: ${who(r.route)}.`);
      if (r.route.description) parts.push(r.route.description);
      parts.push(`\`\`\`json\n${JSON.stringify(op, null, 1)}\n\`\`\`\n`);
    }
  }
  return parts.join('\n');
}
