// What a key of each service can do (docs/security.md, "What a key can do, by service"), generated from the route
// table and the sync kinds and held to that section. The refusals it leans on are tested beside it: a key without
// a route's service gets 403 naming it (scoping.test.ts), session-only routes refuse every key
// (credentials.test.ts), and both over MCP (tests/server/surfaces/mcp/mcp-scoping.test.ts).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_KINDS } from '../../../server/domains/sync/protocol/schema.js';
import { type AnyRoute, credentialsOf } from '../../../server/http/define-route.js';
import { SERVICE_NAMES, type ServiceName } from '../../../server/http/viewer.js';
import { handWrittenTools } from '../../../server/surfaces/mcp/tools/index.js';
import { toolsFromRoutes } from '../../../server/surfaces/mcp/tools/route-tools.js';
import { capabilities, namedRoutes } from '../../../server/surfaces/route-table.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { SLOW_MACHINE } from '../domains/publishing/render-config.js';
import { connect } from '../surfaces/mcp/harness.js';
import {
  apiPathsIn,
  endpointsIn,
  fitsPattern,
  keySection,
  serviceRows,
  subsection,
  ticked,
  toolPatternsIn,
  under,
} from './security-doc.js';
import { kindsOf, pushAs, recordsOf, versionOf } from './sync-records.js';

let srv: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  srv = await startTestServer(SLOW_MACHINE);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await srv.close();
});

const routes = namedRoutes();
const sockets = capabilities.flatMap((c) => c.sockets ?? []);
const tools = [...toolsFromRoutes(routes), ...handWrittenTools];
const endpoint = (route: Pick<AnyRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;
const SESSIONS = ['session', 'workspaceOwner', 'instanceOwner'];
const sessionOnly = routes.filter((r) => credentialsOf(r.route).every((c) => SESSIONS.includes(c)));
const openToKeys = routes.filter((r) => credentialsOf(r.route).includes('key') && !r.route.service);
const ofService = (service: ServiceName) => routes.filter((r) => r.route.service === service);
/** Pack routes check the key's services in their handler: any service of a kind that syncs. */
const isPackRoute = (route: AnyRoute) => under(route.path, '/api/v1/sync/packs');

const section = keySection();
const rows = serviceRows(section);
const rowOf = (service: string) => rows.find((r) => r.service === service)!;

describe('docs/security.md, "What a key can do, by service"', () => {
  it('has a row for every service there is, and every service a route, socket, tool or record kind names', () => {
    const named = [...routes.map((r) => r.route), ...sockets, ...tools, ...srv.deps.sync.kinds.list]
      .map((x) => x.service)
      .filter(Boolean);
    expect(rows.map((r) => r.service).sort()).toEqual([...SERVICE_NAMES].sort());
    expect(new Set(named)).toEqual(new Set(SERVICE_NAMES));
  });

  it.each(SERVICE_NAMES)(
    'the REST cell of %s covers its routes and sockets, and names no path it lacks',
    (s) => {
      const paths = apiPathsIn(rowOf(s).rest);
      const own = [
        ...ofService(s).map((r) => r.route.path),
        ...sockets.filter((k) => k.service === s).map((k) => k.path),
      ];
      for (const path of own)
        expect(
          paths.some((p) => under(path, p)),
          `${s}: ${path}`,
        ).toBe(true);
      for (const p of paths)
        expect(
          own.some((path) => under(path, p)),
          `${s} names ${p}`,
        ).toBe(true);
    },
  );

  it.each(SERVICE_NAMES)('the MCP cell of %s covers its tools, and names no tool it lacks', (s) => {
    const patterns = toolPatternsIn(rowOf(s).mcp);
    const own = tools.filter((t) => t.service === s).map((t) => t.name);
    for (const name of own)
      expect(
        patterns.some((p) => fitsPattern(name, p)),
        `${s}: ${name}`,
      ).toBe(true);
    for (const p of patterns)
      expect(
        own.some((name) => fitsPattern(name, p)),
        `${s} names ${p}`,
      ).toBe(true);
  });

  it.each(SERVICE_NAMES)('the Sync cell of %s names exactly the record kinds it syncs', (s) => {
    const kinds = srv.deps.sync.kinds.list.map((k) => k.kind as string);
    expect(ticked(rowOf(s).sync).filter((t) => kinds.includes(t))).toEqual(kindsOf(srv, s));
  });

  it('"Every key, whatever its services" lists exactly the routes a key may call without a service', () => {
    const listed = endpointsIn(subsection(section, 'Every key, whatever its services'));
    expect(listed.sort()).toEqual(openToKeys.map((r) => endpoint(r.route)).sort());
  });

  it('"What no key can do" lists exactly the routes only a session may call', () => {
    const listed = endpointsIn(subsection(section, 'What no key can do'));
    expect(sessionOnly.length).toBeGreaterThanOrEqual(30);
    expect(listed.sort()).toEqual(sessionOnly.map((r) => endpoint(r.route)).sort());
  });
});

/** Path parameters that pass the routes' own checks where a route looks at them before its key's services. */
const PARAMS: Record<string, string> = { index: '0', sha256: 'a'.repeat(64) };
const BODIES: Record<string, unknown> = {
  beginSyncPack: { blobs: [{ sha256: 'a'.repeat(64), size: 1 }] },
};

async function send(bearer: string, { name, route }: (typeof routes)[number]) {
  const path = route.path.replace(/:(\w+)/g, (_, param: string) => PARAMS[param] ?? 'x');
  const body =
    BODIES[name] ?? (route.method !== 'GET' && route.method !== 'DELETE' && !route.raw ? {} : undefined);
  const res = await srv.as({ bearer })(path, {
    method: route.method,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    label: `${name} (${endpoint(route)}): ${res.status} ${text.slice(0, 200)}`,
  };
}

describe('every route, by service', () => {
  it('has routes of every service, open ones and session-only ones', () => {
    for (const s of SERVICE_NAMES) expect(ofService(s).length, s).toBeGreaterThan(0);
    expect(openToKeys.length).toBeGreaterThanOrEqual(10);
  });

  it.each(SERVICE_NAMES)('a key with only %s is not refused on any of its routes', async (s) => {
    const key = await srv.createKey({ services: [s] });
    for (const r of ofService(s)) {
      const { status, label } = await send(key, r);
      expect([401, 403], label).not.toContain(status);
      expect(status, label).toBeLessThan(500);
    }
  });

  it('a key with no service is not refused on the routes open to every key, but for packs', async () => {
    const key = await srv.createKey({ services: [] });
    for (const r of openToKeys.filter((r) => !isPackRoute(r.route))) {
      const { status, label } = await send(key, r);
      expect([401, 403], label).not.toContain(status);
      expect(status, label).toBeLessThan(500);
    }
  });

  it('packs refuse a key with no service of a kind that syncs (403 naming assets), and take one with any', async () => {
    const syncing = new Set(srv.deps.sync.kinds.list.map((k) => k.service));
    const packRoutes = openToKeys.filter((r) => isPackRoute(r.route));
    expect(packRoutes.length).toBe(4);
    for (const s of [undefined, ...SERVICE_NAMES]) {
      const services = s ? [s] : [];
      const key = await srv.createKey({ services });
      for (const r of packRoutes) {
        const { status, text, label } = await send(key, r);
        if (s && syncing.has(s)) expect([401, 403], label).not.toContain(status);
        else {
          expect(status, label).toBe(403);
          expect(JSON.parse(text), label).toMatchObject({ service: 'assets', enabledServices: services });
        }
      }
    }
  });

  it.each(SERVICE_NAMES)(
    'over MCP a key with only %s lists its tools and those open to every key',
    async (s) => {
      const client = await connect(srv, await srv.createKey({ services: [s] }));
      clients.push(client);
      const listed = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(listed).toEqual(
        tools
          .filter((t) => !t.service || t.service === s)
          .map((t) => t.name)
          .sort(),
      );
    },
  );
});

describe('every sync record kind, by service', () => {
  /** The services whose kinds are pushed below: every one but realtime, which has no record kind. */
  const SYNCING = SERVICE_NAMES.filter((s) => s !== 'realtime');

  it('pushes every kind: each of these services has kinds, and no other service has one', () => {
    expect(SERVICE_NAMES.filter((s) => kindsOf(srv, s).length > 0)).toEqual(SYNCING);
    expect(SYNCING.flatMap((s) => kindsOf(srv, s)).sort()).toEqual([...SYNC_KINDS].sort());
  });

  it.each(SYNCING)(
    'only a key with %s pushes and pulls its kinds; deletes of a publication are refused (405)',
    async (s) => {
      const only = await srv.createKey({ services: [s] });
      const others = await srv.createKey({ services: SERVICE_NAMES.filter((x) => x !== s) });
      const records = await recordsOf(srv, only, s);
      expect(records.map((r) => r.kind)).toEqual(kindsOf(srv, s));

      const refused = await pushAs(srv, others, records);
      for (const result of refused)
        expect(result, result.kind).toMatchObject({ status: 403, outcome: 'skipped', service: s });

      const applied = await pushAs(srv, only, records);
      for (const result of applied)
        expect(result, result.kind).toMatchObject({ status: 201, outcome: 'applied' });

      const ids = new Set(records.map((r) => r.id));
      const pulled = async (bearer: string) => {
        const res = await srv.as({ bearer })('/api/v1/sync/changes?since=0&limit=200');
        const page = (await res.json()) as { changes: { id: string }[]; skipped: { service: string }[] };
        return { ids: page.changes.map((c) => c.id).filter((id) => ids.has(id)), skipped: page.skipped };
      };
      expect((await pulled(only)).ids.sort()).toEqual([...ids].sort());
      const hidden = await pulled(others);
      expect(hidden.ids).toEqual([]);
      expect(hidden.skipped.map((k) => k.service)).toEqual(kindsOf(srv, s).map(() => s));

      // A delete of each, one at a time: nothing published is deleted (an item, or a version whose item exists).
      for (const result of applied) {
        const record = records.find((r) => r.kind === result.kind)!;
        const removal = { kind: record.kind, id: record.id, rev: 2, baseSeq: result.seq, sha256: 'deleted' };
        const [answer] = await pushAs(srv, only, [removal]);
        const published = ['diagrams', 'charts', 'artifacts'].includes(s);
        expect(answer, record.kind).toMatchObject(
          published ? { status: 405, outcome: 'failed' } : { status: 200, outcome: 'applied' },
        );
      }
    },
  );
});

describe('what a synced version reads or embeds needs that service, as through REST', () => {
  const bars = (data: unknown) => ({
    data,
    mark: 'bar',
    encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
  });
  /** Pushes each record alone with a key of `services`; answers each one's result. */
  const pushEach = async (services: ServiceName[], records: ReturnType<typeof versionOf>[]) => {
    const key = await srv.createKey({ services });
    return Promise.all(records.map(async (r) => (await pushAs(srv, key, [r]))[0]));
  };

  it('a chart version reading an asset needs assets: 403 for that record alone, before the asset is read', async () => {
    const reads = versionOf(srv, 'chart-version', bars({ url: 'asset:ast_anyasset' }));
    const inline = versionOf(srv, 'chart-version', bars({ values: [{ q: 'a', r: 1 }] }));
    const [refused, applied] = await pushEach(['charts'], [reads, inline]);
    expect(refused).toEqual({
      kind: 'chart-version',
      id: reads.id,
      status: 403,
      outcome: 'failed',
      service: 'assets',
      error: 'This API key is not enabled for the assets service, so it cannot read what /data/url names',
    });
    expect(applied).toMatchObject({ status: 201, outcome: 'applied' });
    // With assets it arrives: data this workspace does not have reads as empty.
    const [withAssets] = await pushEach(['charts', 'assets'], [reads]);
    expect(withAssets).toMatchObject({ status: 201, outcome: 'applied' });
  });

  it.each([
    ['charts', { type: 'chart', slug: 'any-chart' }, '/children/0/slug', []],
    ['diagrams', { type: 'diagram', slug: 'any-diagram' }, '/children/0/slug', []],
    ['assets', { type: 'image', asset: 'ast_anyimage', alt: 'x' }, '/children/0/asset', []],
    ['assets', { type: 'chart', spec: bars({ url: 'asset:ast_anydata' }) }, '/children/0/spec', []],
    [
      'transcription',
      { type: 'audio', asset: 'ast_anyaudio', transcript: 'trn_any' },
      '/children/0/transcript',
      ['assets'],
    ],
  ] as const)(
    'an artifact version embedding what needs %s is refused (403) without it and arrives with it',
    async (service, component, path, also) => {
      const record = versionOf(srv, 'artifact-version', { children: [component] });
      const [refused] = await pushEach(['artifacts', ...also], [record]);
      expect(refused).toEqual({
        kind: 'artifact-version',
        id: record.id,
        status: 403,
        outcome: 'failed',
        service,
        error: `This API key is not enabled for the ${service} service, so it cannot embed what ${path} names`,
      });
      // What it names need not be here: a synced version may outlive what it embeds.
      const [applied] = await pushEach(['artifacts', ...also, service], [record]);
      expect(applied).toMatchObject({ status: 201, outcome: 'applied' });
    },
  );
});
