// The shell is thin (STYLE.md, Electron boundary): it reaches the server only through its entry, server/app.ts,
// never into config, a domain's store or a surface's files, so the server can change inside without the shell.
import { describe, expect, it } from 'vitest';
import { importGraph } from '../helpers/import-graph.js';

describe('shell boundaries', () => {
  it('electron/ imports from server/ only server/app.ts', () => {
    const intoServer = importGraph('electron').edges.filter((e) => e.to.startsWith('server/'));
    expect(intoServer.map((e) => e.to)).toContain('server/app.ts'); // the graph was read: the shell does start it
    expect(intoServer.filter((e) => e.to !== 'server/app.ts').map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });
});
