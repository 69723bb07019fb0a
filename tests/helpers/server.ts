// startTestServer(): the real createServer on a temp data dir and an ephemeral port; with FOLIO_TEST_BACKEND=hosted
// also on its own PostgreSQL database and S3 prefix (tests/helpers/hosted/backend.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type FolioServer, type ServerSeams } from '../../server/app.js';
import type { ConfigInput } from '../../server/config.js';
import type { ServiceName } from '../../server/http/viewer.js';
import { releaseTestBackend, testBackendFor } from './hosted/backend.js';
import { checkResponse } from './response-check.js';

export type Credential = { cookie: string } | { bearer: string } | null;

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export async function startTestServer(overrides: Partial<ConfigInput> = {}, seams: ServerSeams = {}) {
  const dataDir = overrides.dataDir ?? (await mkdtemp(join(tmpdir(), 'folio-test-')));
  const logs: string[] = [];
  const server: FolioServer = await createServer(
    {
      port: 0,
      dataDir,
      fsync: false,
      logFormat: 'text', // tests read the lines
      // a hosted test node without a model fails a job at once, as the desktop does (queue.ts; tested on its own)
      jobUnclaimedMs: 0,
      ...(await testBackendFor(dataDir)),
      ...overrides,
      limits: { ...defaultLimits, ...overrides.limits },
    } as ConfigInput,
    (line) => logs.push(line),
    seams,
  );
  const { url } = await server.listen();

  /** fetch against the server with a credential; session writes carry our own Origin as a browser would. */
  function as(credential: Credential) {
    return async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (credential && 'cookie' in credential) {
        headers.set('cookie', credential.cookie);
        if (!headers.has('origin')) headers.set('origin', url);
      }
      if (credential && 'bearer' in credential) headers.set('authorization', `Bearer ${credential.bearer}`);
      if (typeof init.body === 'string' && !headers.has('content-type'))
        headers.set('content-type', 'application/json');
      const res = await fetch(`${url}${path}`, { ...init, headers, redirect: 'manual' });
      await checkResponse(init.method ?? 'GET', `${url}${path}`, res);
      return res;
    };
  }

  /** Signs an email in through a one-time link; returns the session cookie (approved or not). */
  async function signIn(email: string): Promise<{ cookie: string }> {
    const link = await server.deps.identity.mintSignInLink(email, url, { announce: false });
    const res = await fetch(link, { redirect: 'manual' });
    await res.body?.cancel();
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
    if (!cookie) throw new Error(`sign-in for ${email} set no cookie (${res.status})`);
    return { cookie: cookie.split(';')[0] };
  }

  /** Invites and signs in a user with a personal workspace. */
  async function signInApproved(email: string) {
    await server.deps.identity.invite(email);
    return signIn(email);
  }

  const owner = await signIn(server.config.ownerEmail);

  /** Creates a key in the owner's (or `session`'s) workspace; returns its id, workspace and secret. */
  async function createKeyDetails({
    services,
    session = owner,
    workspace,
  }: {
    services: ServiceName[];
    session?: { cookie: string };
    workspace?: string;
  }) {
    const res = await as(session)('/api/v1/api-keys', {
      method: 'POST',
      body: JSON.stringify({ name: `test ${services.join('+') || 'none'}`, services }),
      headers: workspace ? { 'x-folio-workspace': workspace } : {},
    });
    if (res.status !== 201) throw new Error(`createKey: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { secret: string; id: string; workspaceId: string };
    return { bearer: body.secret, id: body.id, workspaceId: body.workspaceId };
  }

  const createKey = async (options: Parameters<typeof createKeyDetails>[0]) =>
    (await createKeyDetails(options)).bearer;

  return {
    url,
    dataDir,
    server,
    deps: server.deps,
    logs,
    owner,
    as,
    signIn,
    signInApproved,
    createKey,
    createKeyDetails,
    async close() {
      await server.close();
      if (overrides.dataDir) return;
      await rm(dataDir, { recursive: true, force: true });
      await releaseTestBackend(dataDir);
    },
  };
}

const defaultLimits = {
  jsonBytes: 1 << 20,
  uploadBytes: 64 << 20,
  transcribeBytes: 4 << 20,
  rateLimitPerMinute: 100_000,
  rateLimitBurst: 10_000,
};
