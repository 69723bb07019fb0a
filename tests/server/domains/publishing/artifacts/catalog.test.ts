// The artifact catalog: exactly 15 components, each a valid JSON Schema with a description, whose example
// validates and renders; and validation errors an agent can act on.
import { Ajv } from 'ajv';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../../../../server/domains/publishing/artifacts/catalog/index.js';
import { Blocks } from '../../../../../server/domains/publishing/artifacts/components/blocks.js';
import { validateArtifact } from '../../../../../server/domains/publishing/artifacts/validate-document.js';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { SLOW_MACHINE } from '../render-config.js';

describe('the catalog', () => {
  it('has exactly 15 components, each a valid JSON Schema with a description', () => {
    expect(CATALOG).toHaveLength(15);
    expect(new Set(CATALOG.map((c) => c.name)).size).toBe(15);
    const ajv = new Ajv({ strict: false });
    for (const c of CATALOG) {
      expect(ajv.validateSchema(c.schema), `${c.name}: ${ajv.errorsText()}`).toBe(true);
      expect(c.description.length, c.name).toBeGreaterThan(30);
    }
  });

  it.each(CATALOG.map((c) => [c.name, c] as const))(
    '%s: the example validates and renders',
    (_name, component) => {
      const check = validateArtifact({ children: [component.example] });
      expect(check.issues).toEqual([]);
      const html = renderToStaticMarkup(Blocks({ list: [component.example], pointer: '/children' }));
      expect(html.length).toBeGreaterThan(20);
    },
  );
});

describe('validation messages', () => {
  const issues = (children: unknown[]) => validateArtifact({ children }).issues;

  it('names the nearest component for a typo', () => {
    expect(issues([{ type: 'tabel', rows: [] }])).toEqual([
      {
        path: '/children/0/type',
        message: expect.stringContaining('unknown component "tabel" (did you mean "table"?)'),
      },
    ]);
  });

  it('names unknown properties with the allowed ones, and expected values with the nearest', () => {
    const found = issues([
      { type: 'heading', txt: 'x' },
      { type: 'callout', tone: 'warn', text: 'x' },
      { type: 'grid', columns: 2, children: [{ type: 'metric', label: 'x', value: [1] }] },
    ]);
    expect(found).toEqual(
      expect.arrayContaining([
        {
          path: '/children/0',
          message: expect.stringContaining('unknown property "txt" (did you mean "text"?'),
        },
        {
          path: '/children/1/tone',
          message: expect.stringContaining('found "warn" (did you mean "warning"?)'),
        },
        { path: '/children/2/children/0/value', message: 'expected string,number; found array' },
      ]),
    );
  });
});

describe('POST /api/v1/artifacts/validate', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer(SLOW_MACHINE);
  });
  afterAll(() => srv.close());

  it('reports references this workspace does not have, with pointers', async () => {
    const api = srv.as({ bearer: await srv.createKey({ services: ['artifacts'] }) });
    const res = await api('/api/v1/artifacts/validate', {
      method: 'POST',
      body: JSON.stringify({
        document: {
          children: [
            { type: 'chart', slug: 'no-such-chart' },
            { type: 'image', asset: 'ast_missing', alt: 'x' },
            { type: 'chart', spec: { data: { url: 'https://evil.example/x.csv' }, mark: 'bar' } },
          ],
        },
      }),
    });
    const body = await res.json();
    expect(body.valid).toBe(false);
    expect(body.issues.map((i: { path: string }) => i.path)).toEqual([
      '/children/0/slug',
      '/children/1/asset',
      '/children/2/spec/data/url',
    ]);
  });
});
