// The server's import rules (docs/architecture.md): the platform (http/, store/) imports no layer above it; engines
// import no domain, surface or job; domains import no surface or job, and reach another domain only through its
// service (or the wire shapes in its schema); uploads and publishing are reached only through their entries, sync's
// two sides import nothing of each other, and the publishing kinds serve through one handler; nothing in server/ or
// renderer/ imports in a loop.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Edge, importGraph, importLoops, layerOf } from '../helpers/import-graph.js';

const server = importGraph('server');

/**
 * Imports from outside `home` into it that miss its entries: a `service.ts` (behaviour) or `schema.ts` (wire shapes)
 * for anyone, its routes for the route table, its collections for the export list, its render tasks for the
 * render processes, its reference notes for the route table.
 */
function pastTheEntry(edges: Edge[], home: string): string[] {
  const byWiring: Array<[RegExp, string[]]> = [
    [/routes\.ts$/, ['server/surfaces/route-table.ts']],
    [/\/collections\.ts$/, ['server/cli/collections.ts']],
    [/\/render-tasks\.ts$/, ['server/render-entry.ts']],
    [/\/docs\.ts$/, ['server/surfaces/route-table.ts']],
  ];
  return edges
    .filter((e) => e.to.startsWith(home) && !e.from.startsWith(home))
    .filter((e) => !/\/(service|schema)\.ts$/.test(e.to))
    .filter((e) => !byWiring.some(([target, from]) => target.test(e.to) && from.includes(e.from)))
    .map((e) => `${e.from} → ${e.to}`);
}

/** Imports between two sibling folders of one unit, either way. */
const between = (edges: Edge[], a: string, b: string) =>
  edges
    .filter(
      (e) => (e.from.startsWith(a) && e.to.startsWith(b)) || (e.from.startsWith(b) && e.to.startsWith(a)),
    )
    .map((e) => `${e.from} → ${e.to}`);

const SYNC = 'server/domains/sync/';
const PUBLISHING = 'server/domains/publishing/';
const KINDS = ['diagrams', 'charts', 'artifacts'];

/** `file → target` for every import from one of `from` into one of `to`. */
const crossings = (from: string[], to: string[]) =>
  server.edges
    .filter((e) => from.includes(layerOf(e.from).layer) && to.includes(layerOf(e.to).layer))
    .map((e) => `${e.from} → ${e.to}`);

describe('server boundaries', () => {
  it('the platform (http/, store/) imports no domain, surface, engine or job', () => {
    expect(crossings(['platform'], ['domains', 'surfaces', 'engines', 'jobs', 'root'])).toEqual([]);
  });

  it('engines import no domain, surface or job', () => {
    expect(crossings(['engines'], ['domains', 'surfaces', 'jobs', 'root'])).toEqual([]);
  });

  it('domains import no surface or job', () => {
    expect(crossings(['domains'], ['surfaces', 'jobs'])).toEqual([]);
  });

  it('a domain reaches another only through its service (or the wire shapes of its schema)', () => {
    const reaches = server.edges.filter((e) => {
      const from = layerOf(e.from);
      const to = layerOf(e.to);
      if (from.layer !== 'domains' || to.layer !== 'domains' || from.unit === to.unit) return false;
      return !/\/(service|schema)\.ts$/.test(e.to);
    });
    expect(reaches.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('nothing outside uploads/ reaches past its entries (service, schema; routes for the route table)', () => {
    expect(pastTheEntry(server.edges, 'server/domains/uploads/')).toEqual([]);
  });

  it('nothing outside publishing/ reaches past its entries', () => {
    expect(pastTheEntry(server.edges, PUBLISHING)).toEqual([]);
  });

  it("sync's desktop side and hosted side import nothing of each other", () => {
    expect(between(server.edges, `${SYNC}desktop/`, `${SYNC}hosted/`)).toEqual([]);
  });

  it('a publishing kind reaches another only through its service or schema', () => {
    const crossing = server.edges.filter((e) => {
      const [from, to] = [e.from, e.to].map((path) =>
        KINDS.find((k) => path.startsWith(`${PUBLISHING}${k}/`)),
      );
      return from && to && from !== to && !/\/(service|schema)\.ts$/.test(e.to);
    });
    expect(crossing.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it('publishing keeps what its kinds share in folders by concern; only its entries stay at its root', () => {
    const root = readdirSync(PUBLISHING, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    expect(root.sort()).toEqual(['collections.ts', 'docs.ts', 'schema-issues.ts', 'schema.ts', 'service.ts']);
  });

  it('the kinds serve their pages, SVGs and PNGs through the one serve handler (pages/serve-routes.ts)', () => {
    const ownServe = server.edges.filter(
      (e) =>
        /\/routes\.ts$/.test(e.from) &&
        e.from.startsWith(PUBLISHING) &&
        e.to.endsWith('/pages/serve-rendered.ts'),
    );
    expect(ownServe.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    const serving = server.edges
      .filter((e) => e.to === `${PUBLISHING}pages/serve-routes.ts`)
      .map((e) => e.from);
    expect(serving.sort()).toEqual(KINDS.map((k) => `${PUBLISHING}${k}/routes.ts`).sort());
  });

  it('no import loop in server/', () => {
    expect(importLoops(server)).toEqual([]);
  });

  it('no import loop in renderer/', () => {
    expect(importLoops(importGraph('renderer/src'))).toEqual([]);
  });

  it('the check sees a deliberate violation and a deliberate loop', () => {
    const planted = {
      files: ['server/engines/a.ts', 'server/domains/x/b.ts', 'server/domains/y/c.ts'],
      edges: [
        { from: 'server/engines/a.ts', to: 'server/domains/x/b.ts' },
        { from: 'server/domains/x/b.ts', to: 'server/domains/y/c.ts' },
        { from: 'server/domains/y/c.ts', to: 'server/engines/a.ts' },
      ],
    };
    expect(layerOf('server/engines/a.ts').layer).toBe('engines');
    expect(importLoops(planted)).toEqual([
      'server/domains/x/b.ts → server/domains/y/c.ts → server/engines/a.ts → server/domains/x/b.ts',
    ]);
  });

  it('the home rules see a deliberate reach past an entry and a crossing between sync sides', () => {
    const planted: Edge[] = [
      { from: 'server/domains/sync/kinds/asset.ts', to: 'server/domains/uploads/chunked/part-store.ts' },
      { from: 'server/surfaces/mcp/tools/x.ts', to: 'server/domains/uploads/service.ts' },
      { from: 'server/domains/sync/desktop/send-push.ts', to: 'server/domains/sync/hosted/receive-push.ts' },
    ];
    expect(pastTheEntry(planted, 'server/domains/uploads/')).toEqual([
      'server/domains/sync/kinds/asset.ts → server/domains/uploads/chunked/part-store.ts',
    ]);
    expect(between(planted, `${SYNC}desktop/`, `${SYNC}hosted/`)).toHaveLength(1);
  });
});
