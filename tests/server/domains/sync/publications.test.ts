// Diagrams, charts and artifacts between a desktop and a hosted Folio: every version arrives, in order, both ways;
// a version published on both sides is kept, not lost; visibility is each side's own (a key's push never makes
// anything public); a document either side sends is checked and cleaned as if it were published there.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncPair } from '../../../helpers/sync-pair.js';
import { type Json, syncedRecords, upload } from '../../../helpers/sync-pair.js';
import { call, diagramSvg, newVersion, openConflicts, pushDirectly, start } from './publication-sync.js';

let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

const chartSpec = (assetId: string, title: string) => ({
  title,
  data: { url: `asset:${assetId}` },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
});

const artifactDocument = (text: string, diagram?: string) => ({
  children: [
    { type: 'heading', text: 'Weekly notes', level: 1 },
    { type: 'markdown', text },
    ...(diagram ? [{ type: 'diagram', slug: diagram }] : []),
  ],
});

/** A diagram with two versions, a chart of a CSV asset, an artifact with two versions that shows the diagram. */
async function publishSet(p: SyncPair, slugs: { diagram: string; chart: string; artifact: string }) {
  const api = p.desktop.as({ bearer: p.desktopKey.bearer });
  const csv = await upload(p.desktop, p.desktopKey.bearer, 'q,r\na,3\nb,5\nc,2\n', 'numbers.csv');
  await call(api, '/api/v1/diagrams', 'POST', {
    title: 'Flow v1',
    slug: slugs.diagram,
    kind: 'flowchart',
    svg: diagramSvg('first'),
  });
  await call(api, `/api/v1/diagrams/${slugs.diagram}`, 'PUT', {
    title: 'Flow v2',
    svg: diagramSvg('second'),
  });
  await call(api, '/api/v1/charts', 'POST', {
    title: 'Numbers',
    slug: slugs.chart,
    spec: chartSpec(csv.id, 'Numbers'),
    tags: ['q3'],
  });
  await call(api, '/api/v1/artifacts', 'POST', {
    title: 'Notes',
    slug: slugs.artifact,
    document: artifactDocument('first'),
  });
  await call(api, `/api/v1/artifacts/${slugs.artifact}`, 'PUT', {
    document: artifactDocument('second, with the diagram', slugs.diagram),
  });
  return { csv };
}

const PUBLICATION_KINDS = [
  'diagram',
  'diagram-version',
  'chart',
  'chart-version',
  'artifact',
  'artifact-version',
] as const;

async function publicationsOf(srv: SyncPair['desktop'], workspaceId: string) {
  const all = await syncedRecords(srv, workspaceId);
  return new Map([...all].filter(([key]) => PUBLICATION_KINDS.some((k) => key.startsWith(`${k}:`))));
}

// Each test starts a desktop and a hosted server and renders in fresh render processes: 10-20 s alone, about three
// times that while the whole suite shares two cores.
const TWO_SERVERS = { timeout: 180_000 };

describe('publications between a desktop and a hosted Folio', TWO_SERVERS, () => {
  it('push every version in order, arrive private, render there (a chart’s data asset too), and a second run changes nothing', async () => {
    pair = await start();
    const { desktop, hosted, hostedKey, workspaceId } = pair;
    const slugs = { diagram: 'flow-sync', chart: 'numbers-sync', artifact: 'notes-sync' };
    await publishSet(pair, slugs);
    // Public here: a key's push must not make it public there.
    await call(desktop.as(desktop.owner), `/api/v1/diagrams/${slugs.diagram}/visibility`, 'POST', {
      visibility: 'public',
    });

    const first = await pair.sync();
    expect(first, JSON.stringify(first.errors)).toMatchObject({ ok: true, errors: [] });
    // 1 asset, 2 + 1 + 2 versions, 3 items
    expect(first.counts).toMatchObject({ pushed: 9 });
    const here = await publicationsOf(desktop, workspaceId);
    const there = await publicationsOf(hosted, hostedKey.workspaceId);
    expect(there.size).toBe(8);
    expect(there).toEqual(here);

    const api = hosted.as({ bearer: hostedKey.bearer });
    const diagram = await call(api, `/api/v1/diagrams/${slugs.diagram}`, 'GET');
    expect(diagram).toMatchObject({ title: 'Flow v2', version: 2, visibility: 'private', kind: 'flowchart' });
    const history = await call(api, `/api/v1/diagrams/${slugs.diagram}/versions`, 'GET');
    expect(history.data.map((v: Json) => [v.version, v.title])).toEqual([
      [2, 'Flow v2'],
      [1, 'Flow v1'],
    ]);
    // The hosted feed holds the versions before their item.
    const feed = await hosted.deps.store.changes(hostedKey.workspaceId, {
      since: 0,
      limit: 100,
      collections: ['diagrams', 'diagrams-versions'],
    });
    const itemId = feed.changes.at(-1)!.id;
    expect(feed.changes.map((c) => c.id)).toEqual([`${itemId}@1`, `${itemId}@2`, itemId]);

    // Private there: only its owner's session sees the pages, and they render (the chart reads its synced CSV).
    expect((await fetch(`${hosted.url}/d/${slugs.diagram}`)).status).toBe(404);
    const owner = hosted.as(hosted.owner);
    const svg = await owner(`/d/${slugs.diagram}.svg`);
    expect(svg.status).toBe(200);
    expect(await svg.text()).toContain('second');
    const chart = await owner(`/c/${slugs.chart}.svg`);
    expect(chart.status, await chart.clone().text()).toBe(200);
    const page = await owner(`/a/${slugs.artifact}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('second, with the diagram');
    expect(
      (await call(desktop.as(desktop.owner), `/api/v1/diagrams/${slugs.diagram}`, 'GET')).visibility,
    ).toBe('public');

    const head = async () =>
      (await hosted.deps.store.changes(hostedKey.workspaceId, { since: 0, limit: 1 })).head;
    const before = await head();
    expect(await pair.sync()).toMatchObject({ ok: true, counts: {} });
    const full = await pair.sync(true);
    expect(full.counts).toEqual({ unchanged: 9 });
    expect(await head()).toBe(before);
  });

  it('pull versions published on the hosted side: new ones arrive private, existing ones keep this side’s visibility', async () => {
    pair = await start();
    const { desktop, hosted, hostedKey, workspaceId } = pair;
    const slugs = { diagram: 'flow-pull', chart: 'numbers-pull', artifact: 'notes-pull' };
    const { csv } = await publishSet(pair, slugs);
    await call(desktop.as(desktop.owner), `/api/v1/diagrams/${slugs.diagram}/visibility`, 'POST', {
      visibility: 'unlisted',
    });
    expect((await pair.sync()).ok).toBe(true);

    const web = hosted.as({ bearer: hostedKey.bearer });
    await call(web, `/api/v1/diagrams/${slugs.diagram}`, 'PUT', {
      title: 'Flow v3',
      svg: diagramSvg('third'),
    });
    await call(web, `/api/v1/diagrams/${slugs.diagram}`, 'PUT', { svg: diagramSvg('fourth') });
    await call(web, '/api/v1/charts', 'POST', {
      title: 'Made on the web',
      slug: 'web-chart-pull',
      spec: chartSpec(csv.id, 'Made on the web'),
    });
    await call(web, `/api/v1/artifacts/${slugs.artifact}/archive`, 'POST');

    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    expect(await publicationsOf(desktop, workspaceId)).toEqual(
      await publicationsOf(hosted, hostedKey.workspaceId),
    );
    const here = desktop.as({ bearer: pair.desktopKey.bearer });
    expect(await call(here, `/api/v1/diagrams/${slugs.diagram}`, 'GET')).toMatchObject({
      version: 4,
      title: 'Flow v3',
      visibility: 'unlisted',
    });
    const history = await call(here, `/api/v1/diagrams/${slugs.diagram}/versions`, 'GET');
    expect(history.data.map((v: Json) => v.version)).toEqual([4, 3, 2, 1]);
    expect(await call(here, '/api/v1/charts/web-chart-pull', 'GET')).toMatchObject({ visibility: 'private' });
    expect(await call(here, `/api/v1/artifacts/${slugs.artifact}`, 'GET')).toMatchObject({ archived: true });
    const png = await desktop.as(desktop.owner)('/c/web-chart-pull.png');
    expect(png.status).toBe(200);
  });

  it('version N published on both sides: the hosted one wins, the desktop’s is kept, and “use my copy” publishes it as the next version', async () => {
    pair = await start();
    const { desktop, hosted, hostedKey, desktopKey, workspaceId } = pair;
    const here = desktop.as({ bearer: desktopKey.bearer });
    const there = hosted.as({ bearer: hostedKey.bearer });
    await call(here, '/api/v1/diagrams', 'POST', {
      title: 'Both',
      slug: 'both-sides',
      svg: diagramSvg('one'),
    });
    expect((await pair.sync()).ok).toBe(true);
    await call(here, '/api/v1/diagrams/both-sides', 'PUT', {
      title: 'Desktop’s 2',
      svg: diagramSvg('desktop'),
    });
    await call(there, '/api/v1/diagrams/both-sides', 'PUT', { title: 'Web’s 2', svg: diagramSvg('web') });

    const summary = await pair.sync();
    expect(summary.counts).toMatchObject({ conflicts: 1 });
    const [open] = await openConflicts(pair);
    expect(open).toMatchObject({ kind: 'diagram-version', copy: { record: { title: 'Desktop’s 2' } } });
    expect(open.winner.record.title).toBe('Web’s 2');
    expect(await call(here, '/api/v1/diagrams/both-sides', 'GET')).toMatchObject({
      version: 2,
      title: 'Web’s 2',
    });

    await call(desktop.as(desktop.owner), `/api/v1/sync/conflicts/${open.id}/resolve`, 'POST', {
      keep: 'copy',
    });
    expect(await call(here, '/api/v1/diagrams/both-sides', 'GET')).toMatchObject({
      version: 3,
      title: 'Desktop’s 2',
    });
    const after = await pair.sync();
    expect(after, JSON.stringify(after.errors)).toMatchObject({ ok: true, errors: [] });
    const history = await call(there, '/api/v1/diagrams/both-sides/versions', 'GET');
    expect(history.data.map((v: Json) => [v.version, v.title])).toEqual([
      [3, 'Desktop’s 2'],
      [2, 'Web’s 2'],
      [1, 'Both'],
    ]);
    const svg = await hosted.as(hosted.owner)('/d/both-sides.svg');
    expect(await svg.text()).toContain('desktop');
    expect(await publicationsOf(desktop, workspaceId)).toEqual(
      await publicationsOf(hosted, hostedKey.workspaceId),
    );
  });

  it('a slug another hosted workspace holds is an error for that item alone, naming the slug', async () => {
    pair = await start();
    const { hosted, desktopKey } = pair;
    const stranger = await hosted.signInApproved('stranger@example.com');
    const theirs = hosted.as({
      bearer: await hosted.createKey({ services: ['diagrams'], session: stranger }),
    });
    await call(theirs, '/api/v1/diagrams', 'POST', {
      title: 'Theirs',
      slug: 'taken-slug',
      svg: diagramSvg('x'),
    });
    const here = pair.desktop.as({ bearer: desktopKey.bearer });
    await call(here, '/api/v1/diagrams', 'POST', { title: 'Mine', slug: 'taken-slug', svg: diagramSvg('y') });
    await call(here, '/api/v1/diagrams', 'POST', { title: 'Fine', slug: 'free-slug', svg: diagramSvg('z') });

    const summary = await pair.sync();
    expect(summary.ok).toBe(false);
    expect(summary.errors).toEqual([
      expect.objectContaining({
        kind: 'diagram',
        phase: 'push',
        error: expect.stringContaining('"taken-slug"'),
      }),
    ]);
    const mine = hosted.as({ bearer: pair.hostedKey.bearer });
    expect((await mine('/api/v1/diagrams/free-slug')).status).toBe(200);
    expect((await mine('/api/v1/diagrams/taken-slug')).status).toBe(404);
    expect(await call(theirs, '/api/v1/diagrams/taken-slug', 'GET')).toMatchObject({ title: 'Theirs' });
  });

  it('a version too large to send inline travels in a pack, with a key that has only its own service', async () => {
    pair = await start({ services: ['artifacts'] });
    const code = (i: number) => ({
      type: 'code',
      language: 'ts',
      code: `// part ${i}\n${'x'.repeat(45_000)}`,
    });
    const document = { children: Array.from({ length: 8 }, (_, i) => code(i)) };
    expect(JSON.stringify(document).length).toBeGreaterThan(256 << 10);
    const here = pair.desktop.as({ bearer: pair.desktopKey.bearer });
    await call(here, '/api/v1/artifacts', 'POST', { title: 'Long listing', slug: 'long-listing', document });
    const summary = await pair.sync();
    expect(summary, JSON.stringify(summary.errors)).toMatchObject({ ok: true, errors: [] });
    expect(summary.counts).toMatchObject({ pushed: 2, blobsUploaded: 1 });
    expect(await publicationsOf(pair.hosted, pair.hostedKey.workspaceId)).toEqual(
      await publicationsOf(pair.desktop, pair.workspaceId),
    );
    expect((await pair.sync()).counts).toEqual({});
  });

  it('a key without the publishing services syncs the assets and says which publications it skipped', async () => {
    pair = await start({ services: ['assets'] });
    await publishSet(pair, { diagram: 'flow-skip', chart: 'numbers-skip', artifact: 'notes-skip' });
    const summary = await pair.sync();
    expect(summary.ok).toBe(true);
    expect(summary.counts).toMatchObject({ pushed: 1 });
    const skipped = new Map(summary.skipped.map((s) => [s.kind, s]));
    expect(skipped.get('diagram-version')).toMatchObject({ service: 'diagrams', count: 2 });
    expect(skipped.get('chart')).toMatchObject({
      service: 'charts',
      count: 1,
      reason: 'This key is not enabled for the charts service, so chart records do not sync',
    });
    expect(skipped.get('artifact-version')).toMatchObject({
      service: 'artifacts',
      count: 2,
      reason: 'This key is not enabled for the artifacts service, so artifact version records do not sync',
    });
    expect(await publicationsOf(pair.hosted, pair.hostedKey.workspaceId)).toEqual(new Map());
  });
});

describe(
  'what a version embeds needs its service on the key that pushes it, as through the API',
  TWO_SERVERS,
  () => {
    const bars = {
      data: { values: [{ q: 'a', r: 3 }] },
      mark: 'bar',
      encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'r', type: 'quantitative' } },
    };
    const embedding = (chart: string) => ({
      children: [
        { type: 'markdown', text: 'Notes' },
        { type: 'chart', slug: chart },
      ],
    });

    it('an artifacts-only key cannot push a version embedding a chart (403, that record alone), and the desktop still takes one it pulls', async () => {
      pair = await start({ services: ['artifacts'] });
      const { desktop, hosted, desktopKey, hostedKey } = pair;
      const here = desktop.as({ bearer: desktopKey.bearer });
      await call(here, '/api/v1/charts', 'POST', { title: 'Desk chart', slug: 'desk-chart', spec: bars });
      await call(here, '/api/v1/artifacts', 'POST', {
        title: 'Desk notes',
        slug: 'desk-notes',
        document: embedding('desk-chart'),
      });
      await call(here, '/api/v1/artifacts', 'POST', {
        title: 'Plain',
        slug: 'desk-plain',
        document: { children: [{ type: 'markdown', text: 'nothing embedded' }] },
      });
      // Published on the hosted side by its owner's session, which has every service.
      const web = hosted.as(hosted.owner);
      await call(web, '/api/v1/charts', 'POST', { title: 'Web chart', slug: 'web-chart', spec: bars });
      await call(web, '/api/v1/artifacts', 'POST', {
        title: 'Web notes',
        slug: 'web-notes',
        document: embedding('web-chart'),
      });

      const summary = await pair.sync();
      // The version is refused, so its item (sent after it) has nothing to stand on; nothing else fails.
      expect(summary.errors, JSON.stringify(summary.errors)).toEqual([
        expect.objectContaining({
          kind: 'artifact-version',
          phase: 'push',
          error:
            'This API key is not enabled for the charts service, so it cannot embed what /children/1/slug names',
        }),
        expect.objectContaining({
          kind: 'artifact',
          phase: 'push',
          error: expect.stringContaining('No version'),
        }),
      ]);
      const there = hosted.as({ bearer: hostedKey.bearer });
      expect((await there('/api/v1/artifacts/desk-notes')).status).toBe(404);
      expect(await call(there, '/api/v1/artifacts/desk-plain', 'GET')).toMatchObject({ version: 1 });
      // The desktop applies what it pulls as its owner does, with every service.
      const pulled = await call(here, '/api/v1/artifacts/web-notes', 'GET');
      expect(pulled).toMatchObject({ version: 1, visibility: 'private', document: embedding('web-chart') });
    });
  },
);

describe('documents from the other side are not trusted', TWO_SERVERS, () => {
  const hostile = `<svg viewBox="0 0 100 40" onload="alert(1)"><script>alert(2)</script><rect class="node" x="0" y="0" width="100" height="40"/><text class="label" x="50" y="20">ok</text><a href="javascript:alert(3)"><text class="label" x="5" y="5">x</text></a></svg>`;

  it('a version with an id of the wrong form from the hosted side fails alone; the run goes on', async () => {
    pair = await start();
    const { hosted, hostedKey, desktop, desktopKey } = pair;
    const versions = hosted.deps.store.collection(
      hosted.deps.sync.kinds.of('diagram-version').collection,
      hostedKey.workspaceId,
    );
    await versions.insert({
      id: 'not-a-version-id',
      publicationId: 'dia_x',
      version: 1,
      title: 'Odd',
      tags: [],
      document: diagramSvg('odd'),
      createdAt: new Date().toISOString(),
      // as if it had arrived by sync: a version of this workspace's own with no item would be a killed publish's
      // leftover, which the feed never shows (unfinished-publish.test.ts)
      receivedAt: new Date().toISOString(),
    });
    await upload(hosted, hostedKey.bearer, 'still arrives', 'fine.txt');
    const summary = await pair.sync();
    expect(summary.error).toBeUndefined();
    expect(summary.errors).toEqual([
      expect.objectContaining({ kind: 'diagram-version', id: 'not-a-version-id', phase: 'pull' }),
    ]);
    const here = await desktop.as({ bearer: desktopKey.bearer })('/api/v1/assets');
    expect(((await here.json()) as Json).data.map((a: Json) => a.filename)).toEqual(['fine.txt']);
  });

  it('a diagram version with script, pushed straight to the hosted API, is refused and nothing is stored', async () => {
    pair = await start();
    const kinds = pair.hosted.deps.sync.kinds;
    const record = { title: 'Hostile', tags: [], document: hostile, createdAt: new Date().toISOString() };
    const items = [newVersion(pair, 'diagram-version', 'dia_hostile1@1', record)];
    const res = await pushDirectly(pair, items);
    expect(res.status).toBe(200);
    const [result] = ((await res.json()) as Json).results;
    expect(result).toMatchObject({ outcome: 'failed', status: 400 });
    expect(result.error).toMatch(/diagrams cannot run scripts/);
    const versions = pair.hosted.deps.store.collection(
      kinds.of('diagram-version').collection,
      pair.hostedKey.workspaceId,
    );
    expect(await versions.get('dia_hostile1@1')).toBeUndefined();
  });

  it('a hostile hosted side cannot put script into the desktop’s pages: that version fails, the rest arrives', async () => {
    pair = await start();
    const { desktop, hosted, hostedKey, workspaceId } = pair;
    const web = hosted.as({ bearer: hostedKey.bearer });
    await call(web, '/api/v1/diagrams', 'POST', {
      title: 'Harmless',
      slug: 'from-web',
      svg: diagramSvg('fine'),
    });
    await call(web, '/api/v1/diagrams', 'POST', {
      title: 'Other',
      slug: 'other-web',
      svg: diagramSvg('other'),
    });
    // Written behind the hosted API's back, as a compromised hosted instance could.
    const versions = hosted.deps.store.collection(
      hosted.deps.sync.kinds.of('diagram-version').collection,
      hostedKey.workspaceId,
    );
    const all = await versions.all();
    const poisoned = all.find((v) => v.title === 'Harmless')!;
    await versions.update(poisoned.id, { document: hostile });

    const summary = await pair.sync();
    expect(summary.errors.map((e) => [e.kind, e.id])).toEqual([
      ['diagram-version', poisoned.id],
      ['diagram', poisoned.publicationId],
    ]);
    expect(summary.errors[0].error).toMatch(/diagrams cannot run scripts/);
    const owner = desktop.as(desktop.owner);
    expect((await owner('/d/from-web.svg')).status).toBe(404);
    expect((await owner('/d/other-web.svg')).status).toBe(200);
    const here = desktop.deps.store.collection(
      desktop.deps.sync.kinds.of('diagram-version').collection,
      workspaceId,
    );
    expect(await here.get(poisoned.id)).toBeUndefined();
    // Failed records are tried again each run, and stay failed while the hosted side serves script.
    expect((await pair.sync()).errors).toHaveLength(2);
  });

  it('the same version pushed twice at once (a killed client’s request still being served) is no conflict', async () => {
    pair = await start();
    for (let round = 0; round < 3; round++) {
      // As a desktop sends it: the document as its own check stored it.
      const { document } = await pair.hosted.deps.diagrams.check(diagramSvg(`twice ${round}`));
      const record = {
        title: `Twice ${round}`,
        tags: [],
        document,
        createdAt: new Date().toISOString(),
      };
      const items = [newVersion(pair, 'diagram-version', `dia_twice${round}@1`, record)];
      const answers = await Promise.all([pushDirectly(pair, items), pushDirectly(pair, items)]);
      const outcomes = await Promise.all(
        answers.map(async (r) => ((await r.json()) as Json).results[0].outcome),
      );
      expect(outcomes.sort()).not.toContain('conflict');
      expect(outcomes).toContain('applied');
    }
  });

  it('a chart version with an expression that leads out of the view is refused; what it claims to measure is not taken', async () => {
    pair = await start();
    const kinds = pair.hosted.deps.sync.kinds;
    const version = (id: string, spec: Json, derived?: Json) => {
      const record = {
        title: 'Chart',
        tags: [],
        document: spec,
        createdAt: new Date().toISOString(),
        derived,
      };
      return newVersion(pair!, 'chart-version', id, record);
    };
    const fine = {
      data: { values: [{ a: 1 }] },
      mark: 'bar',
      encoding: { y: { field: 'a', type: 'quantitative' } },
    };
    const unsafe = { ...fine, transform: [{ calculate: 'window.name', as: 'b' }] };
    const res = await pushDirectly(pair, [
      version('cha_unsafe1@1', unsafe),
      version('cha_oddsize@1', fine, { width: 'wide' }),
      version('cha_fine1@1', fine, { width: 100, height: 50, rows: 1 }),
      // An old version whose data asset was deleted since still arrives (it renders empty).
      version('cha_datagone@1', { ...fine, data: { url: 'asset:ast_deletedlongago' } }),
    ]);
    expect(res.status).toBe(200);
    const results = ((await res.json()) as Json).results;
    expect(results.map((r: Json) => [r.outcome, r.status])).toEqual([
      ['failed', 400],
      ['applied', 201],
      ['applied', 201],
      ['applied', 201],
    ]);
    expect(results[0].error).toMatch(/window/);
    // What was sent beside the spec is not taken: the receiver measures the chart itself.
    const stored = await pair.hosted.deps.store
      .collection(kinds.of('chart-version').collection, pair.hostedKey.workspaceId)
      .get('cha_oddsize@1');
    expect(stored?.derived).toMatchObject({ width: expect.any(Number), height: expect.any(Number), rows: 1 });
  });

  it('an artifact version that breaks the catalog is refused, and only that record fails', async () => {
    pair = await start();
    const record = {
      title: 'Bad',
      tags: [],
      document: { children: [{ type: 'html', html: '<script>alert(1)</script>' }] },
      createdAt: new Date().toISOString(),
    };
    const items = [newVersion(pair, 'artifact-version', 'art_bad1@1', record)];
    const res = await pushDirectly(pair, items);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).results[0]).toMatchObject({ outcome: 'failed', status: 400 });
  });
});
