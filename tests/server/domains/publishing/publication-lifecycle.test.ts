// The shared publication model, driven through each kind's API and pages: versions, lists, archive,
// visibility (session only) and the page gate for anonymous, owner and another user's session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../helpers/factories.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { KINDS } from './kinds.js';
import { SLOW_MACHINE } from './render-config.js';

type Item = {
  slug: string;
  title: string;
  tags: string[];
  kind?: string;
  visibility: string;
  archived: boolean;
  version: number;
  latestVersion: number;
  urls: { page: string; svg?: string; png?: string };
  [field: string]: unknown;
};

describe.each(KINDS)('$kind', ({ kind, page, field, document, extra }) => {
  let srv: TestServer;
  let api: ReturnType<TestServer['as']>;
  let owner: ReturnType<TestServer['as']>;
  let stranger: Session;
  const base = `/api/v1/${kind}`;

  beforeAll(async () => {
    srv = await startTestServer(SLOW_MACHINE);
    api = srv.as({ bearer: await srv.createKey({ services: [kind] }) });
    owner = srv.as(srv.owner);
    stranger = await srv.signInApproved('stranger@example.com');
  });
  afterAll(() => srv.close());

  async function publish(body: Record<string, unknown>): Promise<Item> {
    const res = await api(base, { method: 'POST', body: JSON.stringify({ ...extra, ...body }) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Item;
  }

  it('publishes version 1 as private, then PUT makes version 2 while version 1 stays readable', async () => {
    const first = await publish({ title: 'Weekly numbers', [field]: document('alpha') });
    expect(first).toMatchObject({
      title: 'Weekly numbers',
      version: 1,
      latestVersion: 1,
      visibility: 'private',
      archived: false,
    });
    expect(first.slug).toMatch(/^weekly-numbers-[a-z0-9]{6}$/);
    expect(first.urls.page).toBe(`${srv.url}${page}/${first.slug}`);

    const put = await api(`${base}/${first.slug}`, {
      method: 'PUT',
      body: JSON.stringify({ [field]: document('beta'), title: 'Weekly numbers v2' }),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ version: 2, latestVersion: 2, title: 'Weekly numbers v2' });

    const old = (await (await api(`${base}/${first.slug}?version=1`)).json()) as Item;
    expect(old).toMatchObject({ version: 1, latestVersion: 2, title: 'Weekly numbers' });
    expect(JSON.stringify(old[field])).toContain('alpha');
    expect(old.urls.page).toBe(`${srv.url}${page}/${first.slug}?version=1`);
    const latest = (await (await api(`${base}/${first.slug}`)).json()) as Item;
    expect(JSON.stringify(latest[field])).toContain('beta');

    const versions = await (await api(`${base}/${first.slug}/versions`)).json();
    expect(versions.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await api(`${base}/${first.slug}?version=3`)).status).toBe(404);

    const pageV1 = await (await owner(`${page}/${first.slug}?version=1`)).text();
    const pageNow = await (await owner(`${page}/${first.slug}`)).text();
    expect(pageV1).toContain('alpha');
    expect(pageNow).toContain('beta');
  });

  it('gives every one of several concurrent PUTs its own version number', async () => {
    const item = await publish({ title: 'Raced', [field]: document('r0') });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        api(`${base}/${item.slug}`, { method: 'PUT', body: JSON.stringify({ [field]: document(`r${n}`) }) }),
      ),
    );
    const versions = await Promise.all(answers.map(async (r) => ((await r.json()) as Item).version));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect([...versions].sort()).toEqual([2, 3, 4, 5, 6]);
    const history = await (await api(`${base}/${item.slug}/versions`)).json();
    expect(history.data).toHaveLength(6);
    expect(((await (await api(`${base}/${item.slug}`)).json()) as Item).latestVersion).toBe(6);
  });

  it('lists newest first with q, tag, archived filters and paging', async () => {
    const tag = `t${Date.now()}`;
    const a = await publish({ title: 'Zebra migration', tags: [tag, 'red'], [field]: document('a') });
    const b = await publish({
      title: 'Lion census',
      tags: [tag, 'blue'],
      description: 'About zebras too',
      [field]: document('b'),
    });
    const c = await publish({ title: 'Giraffe heights', tags: [tag], [field]: document('c') });
    const slugs = async (query: string) =>
      ((await (await api(`${base}?${query}`)).json()).data as Item[]).map((i) => i.slug);

    expect(await slugs(`tag=${tag}`)).toEqual([c.slug, b.slug, a.slug]);
    expect(await slugs(`tag=${tag}&q=ZEBRA`)).toEqual([b.slug, a.slug]);
    expect(await slugs(`tag=${tag},red`)).toEqual([a.slug]);
    expect(await slugs(`tag=${tag}&tag=blue`)).toEqual([b.slug]);

    const first = await (await api(`${base}?tag=${tag}&limit=2`)).json();
    expect(first.data.map((i: Item) => i.slug)).toEqual([c.slug, b.slug]);
    expect(first.data[0]).not.toHaveProperty(field);
    const second = await (await api(`${base}?tag=${tag}&limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.data.map((i: Item) => i.slug)).toEqual([a.slug]);
    expect(second.nextCursor).toBeNull();

    const archived = await api(`${base}/${b.slug}/archive`, { method: 'POST' });
    expect(((await archived.json()) as Item).archived).toBe(true);
    expect(await slugs(`tag=${tag}`)).toEqual([c.slug, a.slug]);
    expect(await slugs(`tag=${tag}&includeArchived=true`)).toEqual([c.slug, b.slug, a.slug]);
    expect((await owner(`${page}/${b.slug}`)).status).toBe(404);
    await api(`${base}/${b.slug}/unarchive`, { method: 'POST' });
    expect(await slugs(`tag=${tag}`)).toEqual([c.slug, b.slug, a.slug]);
    expect((await owner(`${page}/${b.slug}`)).status).toBe(200);
  });

  it('lets only a session change visibility, and gates the page by it', async () => {
    const item = await publish({ title: 'Gated', [field]: document('gated') });
    const anonymous = () => fetch(`${srv.url}${page}/${item.slug}`);
    const asStranger = () => srv.as(stranger)(`${page}/${item.slug}`);

    expect((await anonymous()).status).toBe(404);
    expect((await asStranger()).status).toBe(404);
    expect((await owner(`${page}/${item.slug}`)).status).toBe(200);

    const byKey = await api(`${base}/${item.slug}/visibility`, {
      method: 'POST',
      body: JSON.stringify({ visibility: 'public' }),
    });
    expect(byKey.status).toBe(403);
    expect((await anonymous()).status).toBe(404);

    for (const visibility of ['unlisted', 'public'] as const) {
      const set = await owner(`${base}/${item.slug}/visibility`, {
        method: 'POST',
        body: JSON.stringify({ visibility }),
      });
      expect(((await set.json()) as Item).visibility).toBe(visibility);
      expect((await anonymous()).status).toBe(200);
      expect((await asStranger()).status).toBe(200);
    }
    const stranded = await srv.as(stranger)(`${base}/${item.slug}`);
    expect(stranded.status).toBe(404); // the API is per workspace: another user's items do not exist for them
  });

  it('refuses a taken or malformed slug', async () => {
    const slug = `${kind}-fixed-slug`;
    await publish({ title: 'One', slug, [field]: document('one') });
    const again = await api(base, {
      method: 'POST',
      body: JSON.stringify({ ...extra, title: 'Two', slug, [field]: document('two') }),
    });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toContain(slug);
    const strangerKey = await srv.createKey({ services: [kind], session: stranger });
    const elsewhere = await srv.as({ bearer: strangerKey })(base, {
      method: 'POST',
      body: JSON.stringify({ ...extra, title: 'Three', slug, [field]: document('three') }),
    });
    expect(elsewhere.status).toBe(409); // unique across the instance, not per workspace
    for (const bad of ['Upper', 'with space', 'vocabulary', 'x'.repeat(65)]) {
      const res = await api(base, {
        method: 'POST',
        body: JSON.stringify({ ...extra, title: 'Bad', slug: bad, [field]: document('bad') }),
      });
      expect(res.status, bad).toBe(400);
    }
  });

  it('answers pages with an ETag, 304 on If-None-Match, no-cache, and a new ETag for a new version', async () => {
    const item = await publish({ title: 'Cached', [field]: document('c1') });
    await owner(`${base}/${item.slug}/visibility`, {
      method: 'POST',
      body: JSON.stringify({ visibility: 'public' }),
    });
    const first = await fetch(`${srv.url}${page}/${item.slug}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-security-policy')).toMatch(/sandbox(?! [^;]*allow-same-origin)/);
    const again = await fetch(`${srv.url}${page}/${item.slug}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    await api(`${base}/${item.slug}`, { method: 'PUT', body: JSON.stringify({ [field]: document('c2') }) });
    const changed = await fetch(`${srv.url}${page}/${item.slug}`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const unfurl = await changed.text();
    expect(unfurl).toContain(`<meta property="og:image" content="${srv.url}${page}/${item.slug}.png">`);
    expect(unfurl).toContain('<meta name="twitter:card" content="summary_large_image">');

    const privateItem = await publish({ title: 'Private cache', [field]: document('p') });
    const privatePage = await owner(`${page}/${privateItem.slug}`);
    expect(privatePage.headers.get('cache-control')).toBe('private, no-cache');
    expect(privatePage.headers.get('vary')).toBe('Cookie');
  });

  it('refuses the API to a key without the service, and keeps workspaces apart', async () => {
    const other = await srv.createKey({ services: ['assets'] });
    const res = await srv.as({ bearer: other })(base);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ service: kind });
    const item = await publish({ title: 'Mine', [field]: document('mine') });
    const strangerKey = await srv.createKey({ services: [kind], session: stranger });
    const theirs = srv.as({ bearer: strangerKey });
    expect((await theirs(`${base}/${item.slug}`)).status).toBe(404);
    expect(
      (
        await theirs(`${base}/${item.slug}`, {
          method: 'PUT',
          body: JSON.stringify({ [field]: document('x') }),
        })
      ).status,
    ).toBe(404);
    expect((await theirs(`${base}/${item.slug}/archive`, { method: 'POST' })).status).toBe(404);
  });
});
