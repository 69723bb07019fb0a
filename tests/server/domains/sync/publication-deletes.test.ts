// Deletes that arrive by sync obey the API's rules: the API never deletes a published diagram, chart or artifact
// (archive instead) nor one of its versions, so a push or a pulled change that would is refused as that record's
// error, the version keeps answering, and the item's slug stays with its workspace.
import { afterEach, describe, expect, it } from 'vitest';
import type { Json, SyncPair } from '../../../helpers/sync-pair.js';
import { call, diagramSvg, pushDirectly, start } from './publication-sync.js';

let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

/** A diagram of two versions published on the hosted side, unlisted, and its records as the feed has them. */
async function publishedThere(p: SyncPair, slug: string) {
  const web = p.hosted.as({ bearer: p.hostedKey.bearer });
  await call(web, '/api/v1/diagrams', 'POST', { title: 'Kept', slug, svg: diagramSvg('one') });
  await call(web, `/api/v1/diagrams/${slug}`, 'PUT', { svg: diagramSvg('two') });
  await call(p.hosted.as(p.hosted.owner), `/api/v1/diagrams/${slug}/visibility`, 'POST', {
    visibility: 'unlisted',
  });
  const feed = await call(web, '/api/v1/sync/changes?since=0', 'GET');
  const record = (kind: string, n?: number) =>
    feed.changes.find((c: Json) => c.kind === kind && (n === undefined || c.id.endsWith(`@${n}`))) as Json;
  return { web, item: record('diagram'), version2: record('diagram-version', 2) };
}

const deleteOf = (record: Json) => ({
  kind: record.kind,
  id: record.id,
  rev: 1,
  baseSeq: record.seq,
  sha256: 'deleted',
});

async function pushedResult(p: SyncPair, records: Json[]) {
  const res = await pushDirectly(p, records);
  expect(res.status).toBe(200);
  return ((await res.json()) as Json).results as Json[];
}

describe('deletes of publications by sync', () => {
  it('a key with only diagrams cannot delete a published version: refused as that record’s error, it still answers', async () => {
    pair = await start({ services: ['diagrams'] });
    const { web, version2 } = await publishedThere(pair, 'kept-version');
    const [result] = await pushedResult(pair, [deleteOf(version2)]);
    expect(result).toMatchObject({ kind: 'diagram-version', outcome: 'failed', status: 405 });
    expect(result.error).toMatch(/published versions are never deleted/);
    expect(await call(web, '/api/v1/diagrams/kept-version?version=2', 'GET')).toMatchObject({ version: 2 });
    expect((await fetch(`${pair.hosted.url}/d/kept-version?version=2`)).status).toBe(200);
  });

  it('a push cannot delete a published item: its slug stays with its workspace, and nobody else can take it', async () => {
    pair = await start({ services: ['diagrams'] });
    const { hosted } = pair;
    const { web, item, version2 } = await publishedThere(pair, 'kept-slug');
    const results = await pushedResult(pair, [deleteOf(version2), deleteOf(item)]);
    expect(results.map((r) => [r.kind, r.outcome, r.status])).toEqual([
      ['diagram-version', 'failed', 405],
      ['diagram', 'failed', 405],
    ]);
    expect(results[1].error).toMatch(/never deleted.*archive/);
    expect(await call(web, '/api/v1/diagrams/kept-slug', 'GET')).toMatchObject({ version: 2, title: 'Kept' });

    const stranger = await hosted.signInApproved('stranger@example.com');
    const theirs = hosted.as({
      bearer: await hosted.createKey({ services: ['diagrams'], session: stranger }),
    });
    await call(
      theirs,
      '/api/v1/diagrams',
      'POST',
      { title: 'Theirs', slug: 'kept-slug', svg: diagramSvg('theirs') },
      [409],
    );
    const page = await fetch(`${hosted.url}/d/kept-slug.svg`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('two');
  });

  it('a hosted side that deleted a published version behind its API cannot delete it on the desktop', async () => {
    pair = await start();
    const { desktop, desktopKey, hosted, hostedKey } = pair;
    const here = desktop.as({ bearer: desktopKey.bearer });
    await call(here, '/api/v1/diagrams', 'POST', {
      title: 'Mine',
      slug: 'mine-stays',
      svg: diagramSvg('one'),
    });
    await call(here, '/api/v1/diagrams/mine-stays', 'PUT', { svg: diagramSvg('two') });
    expect((await pair.sync()).ok).toBe(true);
    const versions = hosted.deps.store.collection(
      hosted.deps.sync.kinds.of('diagram-version').collection,
      hostedKey.workspaceId,
    );
    const [second] = await versions.all({ version: 2 });
    await versions.remove(second.id);

    const summary = await pair.sync();
    expect(summary.errors).toEqual([
      expect.objectContaining({
        kind: 'diagram-version',
        id: second.id,
        phase: 'pull',
        error: expect.stringMatching(/published versions are never deleted/),
      }),
    ]);
    expect(await call(here, '/api/v1/diagrams/mine-stays?version=2', 'GET')).toMatchObject({ version: 2 });
  });
});
