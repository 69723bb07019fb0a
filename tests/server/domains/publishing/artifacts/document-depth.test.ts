// A document nested past MAX_DOCUMENT_DEPTH is refused with 400 naming the limit, on validate, publish and
// update alike, before anything walks it recursively (a 10,000-deep document once answered 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateArtifact } from '../../../../../server/domains/publishing/artifacts/validate-document.js';
import { depthProblem, MAX_DOCUMENT_DEPTH } from '../../../../../server/engines/render/document-depth.js';
import { startTestServer, type TestServer } from '../../../../helpers/server.js';
import { SLOW_MACHINE } from '../render-config.js';

/** `{ children: [ [ [ ... ] ] ] }`: the document object, its children array, then `levels` more arrays. */
function nested(levels: number): { children: unknown[] } {
  let inner: unknown[] = [];
  for (let i = 1; i < levels; i += 1) inner = [inner];
  return { children: [inner] };
}

describe('depthProblem', () => {
  it('passes a document at the limit and names the limit and where it is passed', () => {
    expect(depthProblem(nested(MAX_DOCUMENT_DEPTH - 2))).toBeUndefined();
    const problem = depthProblem(nested(MAX_DOCUMENT_DEPTH - 1));
    expect(problem?.message).toContain(`nests more than ${MAX_DOCUMENT_DEPTH} levels deep`);
    expect(problem?.path).toBe(`/children${'/0'.repeat(MAX_DOCUMENT_DEPTH - 1)}`);
  });

  it('passes a page at the component limit: tabs 6 deep around an inline chart', () => {
    let inner: unknown = {
      type: 'chart',
      spec: {
        data: { values: [{ a: { b: [1] } }] },
        mark: { type: 'bar', tooltip: { content: 'data' } },
        encoding: { x: { field: 'a', type: 'nominal', axis: { labelExpr: 'datum.label' } } },
      },
    };
    const other = { label: 'other', children: [{ type: 'markdown', text: 'x' }] };
    for (let i = 1; i < 6; i += 1)
      inner = { type: 'tabs', tabs: [{ label: 'tab', children: [inner] }, other] };
    const document = { children: [inner] };
    expect(validateArtifact(document).issues).toEqual([]);
    expect(depthProblem(document)).toBeUndefined();
  });

  it('walks a million levels without overflowing the stack', () => {
    expect(depthProblem(nested(1_000_000))?.message).toContain(String(MAX_DOCUMENT_DEPTH));
  });
});

describe('a document nested 10,000 deep', () => {
  let srv: TestServer;
  let api: ReturnType<TestServer['as']>;
  beforeAll(async () => {
    srv = await startTestServer(SLOW_MACHINE);
    api = srv.as({ bearer: await srv.createKey({ services: ['artifacts'] }) });
  });
  afterAll(() => srv.close());

  // Written as text: JSON.stringify itself overflows the stack on a value this deep.
  const deep = `{"children":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
  const expectDepthRefusal = async (res: Response) => {
    const body = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(400);
    expect(body.error).toContain(`nests more than ${MAX_DOCUMENT_DEPTH} levels deep`);
    expect(body.issues[0].path).toMatch(/^\/children(\/0)+$/);
  };

  it('is a 400 naming the depth limit on validate', async () => {
    const res = await api('/api/v1/artifacts/validate', {
      method: 'POST',
      body: `{"document":${deep}}`,
    });
    await expectDepthRefusal(res);
  });

  it('is a 400 naming the depth limit on publish and on a new version', async () => {
    await expectDepthRefusal(
      await api('/api/v1/artifacts', {
        method: 'POST',
        body: `{"title":"Deep","document":${deep}}`,
      }),
    );
    const made = await api('/api/v1/artifacts', {
      method: 'POST',
      body: JSON.stringify({ title: 'Shallow', document: { children: [{ type: 'markdown', text: 'hi' }] } }),
    });
    const { slug } = (await made.json()) as { slug: string };
    await expectDepthRefusal(
      await api(`/api/v1/artifacts/${slug}`, { method: 'PUT', body: `{"document":${deep}}` }),
    );
  });
});
