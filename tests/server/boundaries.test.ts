// The server's import rules (docs/architecture.md): the platform (http/, store/) imports no layer above it; engines
// import no domain, surface or job; domains import no surface or job, and reach another domain only through its
// service (or the wire shapes in its schema); nothing in server/ or renderer/ imports in a loop.
import { describe, expect, it } from 'vitest';
import { importGraph, importLoops, layerOf } from '../helpers/import-graph.js';

const server = importGraph('server');

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
});
