// The start-up contract (docs/headless.md) and invite-only sign-in, through the real headless entry point.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInLinks } from '../../../../server/domains/identity/collections.js';
import { hashSecret } from '../../../../server/http/secret-hash.js';
import { type ChildServer, spawnServer } from '../../../helpers/child-server.js';
import { startTestServer } from '../../../helpers/server.js';

let child: ChildServer;
let dataDir: string;
/** The owner's session, from the start-up link (used once, by the second test). */
let ownerCookie: string | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-serve-'));
  child = await spawnServer(['--port', '0', '--data-dir', dataDir], { viaNpx: true, timeoutMs: 60_000 });
}, 90_000);
afterAll(async () => {
  await child?.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
});

/** A browser-like request: the cookie, and our own Origin on writes. */
function browser(cookie?: string) {
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    if (init.method && init.method !== 'GET') headers.set('origin', child.url);
    if (init.body) headers.set('content-type', 'application/json');
    return fetch(`${child.url}${path}`, { ...init, headers, redirect: 'manual' });
  };
}

async function follow(link: string) {
  const res = await fetch(link, { redirect: 'manual' });
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
  return { res, setCookie, cookie: setCookie?.split(';')[0] };
}

async function waitForLine(pattern: RegExp, timeoutMs = 5_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    for (const line of child.lines) {
      const match = pattern.exec(line);
      if (match) return match;
    }
    if (Date.now() > until) throw new Error(`no line matched ${pattern}:\n${child.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('headless start-up and sign-in', () => {
  it('prints the two start-up lines, listening first, on the port it picked', () => {
    const listening = child.lines.findIndex((l) => /^Folio listening on http:\/\/127\.0\.0\.1:\d+$/.test(l));
    const owner = child.lines.findIndex((l) =>
      /^Owner sign-in: http:\/\/127\.0\.0\.1:\d+\/auth\/callback\?token=[A-Za-z0-9_-]{20,}$/.test(l),
    );
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(owner).toBeGreaterThan(listening);
    const port = Number(new URL(child.url).port);
    expect(port).toBeGreaterThan(0);
    expect(new URL(child.ownerLink).port).toBe(String(port));
  });

  it('the owner link sets an HttpOnly SameSite=Lax cookie, redirects to / and works once only', async () => {
    const { res, setCookie, cookie } = await follow(child.ownerLink);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    expect(setCookie).toMatch(/;\s*httponly/i);
    expect(setCookie).toMatch(/;\s*samesite=lax/i);
    expect(setCookie).toMatch(/;\s*path=\//i);
    expect(setCookie).not.toMatch(/;\s*domain=/i);
    ownerCookie = cookie;
    const me = (await (await browser(cookie)('/api/v1/me')).json()) as {
      isApproved: boolean;
      workspace: { id: string };
    };
    expect(me.isApproved).toBe(true);
    expect(me.workspace.id).toMatch(/^ws_/);
    const again = await follow(child.ownerLink);
    expect(again.res.status).toBe(410);
    expect(again.setCookie).toBeUndefined();
    expect(await again.res.json()).toEqual({ error: expect.any(String) });
  });

  it('a stranger signs in unapproved, waits on the waitlist, and the same session is approved by an invite', async () => {
    const asked = await browser()('/auth/sign-in', {
      method: 'POST',
      body: JSON.stringify({ email: 'Stranger@Example.com' }),
    });
    expect(asked.status).toBe(202);
    const [, link] = await waitForLine(
      /^Sign-in link for stranger@example\.com: (http:\/\/127\.0\.0\.1:\d+\/auth\/callback\?token=\S+)$/,
    );
    const { res, cookie } = await follow(link);
    expect(res.status).toBe(302);
    expect(await (await browser(cookie)('/api/v1/me')).json()).toEqual({
      isApproved: false,
      email: 'stranger@example.com',
    });
    for (const [path, init] of [
      ['/api/v1/workspaces', {}],
      ['/api/v1/api-keys', {}],
      ['/api/v1/api-keys', { method: 'POST', body: JSON.stringify({ name: 'k', services: [] }) }],
      ['/api/v1/waitlist', {}],
    ] as const) {
      const r = await browser(cookie)(path, init);
      expect(r.status, path).toBe(403);
      expect((await r.json()).error).toEqual(expect.any(String));
    }

    const list = (await (await browser(ownerCookie)('/api/v1/waitlist')).json()) as {
      data: { email: string; status: string }[];
    };
    expect(list.data).toContainEqual(
      expect.objectContaining({ email: 'stranger@example.com', status: 'pending' }),
    );
    const invite = await browser(ownerCookie)('/api/v1/waitlist/invite', {
      method: 'POST',
      body: JSON.stringify({ email: 'stranger@example.com' }),
    });
    expect(invite.status).toBe(200);
    expect(await invite.json()).toMatchObject({ email: 'stranger@example.com', status: 'invited' });

    const me = (await (await browser(cookie)('/api/v1/me')).json()) as {
      isApproved: boolean;
      profile: { email: string };
      workspace: { id: string };
    };
    expect(me.isApproved).toBe(true);
    expect(me.profile.email).toBe('stranger@example.com');
    const workspaces = (await (await browser(cookie)('/api/v1/workspaces')).json()) as {
      data: { id: string; personal: boolean }[];
    };
    expect(workspaces.data).toEqual([expect.objectContaining({ id: me.workspace.id, personal: true })]);

    const out = await browser(cookie)('/auth/sign-out', { method: 'POST' });
    expect(out.status).toBe(204);
    expect((await browser(cookie)('/api/v1/me')).status).toBe(401);
  });

  it('takes public waitlist joins with 202 and the same answer for a known email', async () => {
    for (const email of ['joiner@example.com', 'joiner@example.com', 'stranger@example.com']) {
      const res = await fetch(`${child.url}/api/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ email, status: 'received' });
    }
  });
});

describe('sign-in links', () => {
  it('answers 410 to an expired link and to an unknown token, and sets no cookie', async () => {
    const srv = await startTestServer();
    try {
      const link = await srv.deps.identity.mintSignInLink('late@example.com', srv.url);
      const token = new URL(link).searchParams.get('token')!;
      await srv.deps.store.instance(signInLinks).update(hashSecret(token), {
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      });
      for (const url of [link, `${srv.url}/auth/callback?token=nope`]) {
        const res = await fetch(url, { redirect: 'manual' });
        expect(res.status).toBe(410);
        expect(res.headers.getSetCookie()).toEqual([]);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    } finally {
      await srv.close();
    }
  });
});
