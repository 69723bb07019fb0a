// authorize(): every kind of credential against every kind of route, with services, an unapproved session and
// the workspace a request names. Each row is written out by hand, so the table is the specification.
import { describe, expect, it } from 'vitest';
import type { Identified } from '../../../server/http/authenticate.js';
import { type AuthorizeRequest, authorize, type WorkspaceDirectory } from '../../../server/http/authorize.js';
import { HttpError } from '../../../server/http/errors.js';
import type { Viewer, WorkspaceRef } from '../../../server/http/viewer.js';

const OWNER = 'usr_owner';
const USER = 'usr_user';
const workspaces: WorkspaceRef[] = [
  { id: 'ws_owner', name: 'Owner personal', ownerId: OWNER },
  { id: 'ws_owner2', name: 'Owner second', ownerId: OWNER },
  { id: 'ws_user', name: 'User personal', ownerId: USER },
];
const personal: Record<string, string> = { [OWNER]: 'ws_owner', [USER]: 'ws_user' };
const directory: WorkspaceDirectory = {
  get: async (id) => workspaces.find((w) => w.id === id),
  personalOf: async (userId) => workspaces.find((w) => w.id === personal[userId]),
};

const session = (userId: string | null, isInstanceOwner = false): Viewer => ({
  kind: 'session',
  sessionId: `ses_${userId ?? 'waiting'}`,
  email: `${userId ?? 'waiting'}@example.com`,
  userId,
  approved: userId !== null,
  isInstanceOwner,
});
const grant = (purpose: string, workspaceId: string): Viewer => ({
  kind: 'grant',
  grant: { id: `grt_${purpose}`, purpose, workspaceId },
});

/** The credentials a request can carry, as authenticate() hands them over. */
const credentials = {
  none: { viewer: { kind: 'public' } },
  badKey: { viewer: { kind: 'public' }, problem: 'Invalid or revoked API key' },
  expiredSession: {
    viewer: { kind: 'public' },
    problem: 'Your session has expired or was signed out; sign in again',
  },
  keyAssets: { viewer: { kind: 'key', keyId: 'key_a', workspaceId: 'ws_owner2', services: ['assets'] } },
  keyNoServices: { viewer: { kind: 'key', keyId: 'key_n', workspaceId: 'ws_owner', services: [] } },
  keyAll: {
    viewer: {
      kind: 'key',
      keyId: 'key_all',
      workspaceId: 'ws_user',
      services: ['assets', 'transcription', 'realtime', 'diagrams', 'artifacts', 'charts'],
    },
  },
  keyOfDeletedWorkspace: {
    viewer: { kind: 'key', keyId: 'key_d', workspaceId: 'ws_gone', services: ['assets'] },
  },
  uploadGrant: { viewer: grant('upload', 'ws_owner') },
  realtimeGrant: { viewer: grant('realtime', 'ws_user') },
  grantOfDeletedWorkspace: { viewer: grant('upload', 'ws_gone') },
  owner: { viewer: session(OWNER, true) },
  user: { viewer: session(USER) },
  waiting: { viewer: session(null) },
} satisfies Record<string, Identified>;
type CredentialName = keyof typeof credentials;

/** Route shapes as routes declare them (define-route.ts). */
const routes = {
  public: { auth: 'public' },
  sessionOrKeyWithService: { auth: ['session', 'key'], service: 'assets' },
  sessionOrKey: { auth: ['session', 'key'] },
  sessionOrKeyUnapproved: { auth: ['session', 'key'], allowUnapproved: true },
  sessionOnly: { auth: 'session' },
  keyOnlyWithService: { auth: 'key', service: 'transcription' },
  workspaceOwner: { auth: 'workspaceOwner' },
  instanceOwner: { auth: 'instanceOwner' },
  grantOrPublic: { auth: ['grant', 'public'], grantPurpose: 'upload' },
  grantOrKey: { auth: ['grant', 'key'], grantPurpose: 'realtime', service: 'realtime' },
} satisfies Record<string, AuthorizeRequest['route']>;
type RouteName = keyof typeof routes;

/**
 * `ws_…`: allowed, acting on that workspace. `none`: allowed with no workspace (public routes). `waiting`: an
 * unapproved session let through with no workspace. Otherwise the status and a piece of the message.
 */
type Outcome = string | 'none' | 'waiting' | [number, RegExp];
const NEEDS_CREDENTIAL: Outcome = [401, /Authentication required/];
const BAD_KEY: Outcome = [401, /Invalid or revoked API key/];
const EXPIRED: Outcome = [401, /sign in again/];
const WORKSPACE_GONE: Outcome = [401, /no longer exists/];
const SESSION_ONLY: Outcome = [403, /needs a signed-in session/];
const KEY_ONLY: Outcome = [403, /needs an API key/];
const WRONG_GRANT: Outcome = [403, /grant cannot be used/];
const WAITING: Outcome = [403, /waiting for approval/];
const NOT_OWNER: Outcome = [403, /Only the owner of this Folio instance/];
const NO_SERVICE = (service: string): Outcome => [403, new RegExp(`not enabled for the ${service} service`)];
const NOT_FOUND: Outcome = [404, /Workspace not found/];

const table: Record<RouteName, Record<CredentialName, Outcome>> = {
  public: {
    none: 'none',
    badKey: 'none',
    expiredSession: 'none',
    keyAssets: 'none',
    keyNoServices: 'none',
    keyAll: 'none',
    keyOfDeletedWorkspace: 'none',
    uploadGrant: 'none',
    realtimeGrant: 'none',
    grantOfDeletedWorkspace: 'none',
    owner: 'none',
    user: 'none',
    waiting: 'none',
  },
  sessionOrKeyWithService: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: 'ws_owner2',
    keyNoServices: NO_SERVICE('assets'),
    keyAll: 'ws_user',
    keyOfDeletedWorkspace: WORKSPACE_GONE,
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: 'ws_owner',
    user: 'ws_user',
    waiting: WAITING,
  },
  sessionOrKey: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: 'ws_owner2',
    keyNoServices: 'ws_owner',
    keyAll: 'ws_user',
    keyOfDeletedWorkspace: WORKSPACE_GONE,
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: 'ws_owner',
    user: 'ws_user',
    waiting: WAITING,
  },
  sessionOrKeyUnapproved: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: 'ws_owner2',
    keyNoServices: 'ws_owner',
    keyAll: 'ws_user',
    keyOfDeletedWorkspace: WORKSPACE_GONE,
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: 'ws_owner',
    user: 'ws_user',
    waiting: 'waiting',
  },
  sessionOnly: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: SESSION_ONLY,
    keyNoServices: SESSION_ONLY,
    keyAll: SESSION_ONLY,
    keyOfDeletedWorkspace: SESSION_ONLY,
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: 'ws_owner',
    user: 'ws_user',
    waiting: WAITING,
  },
  keyOnlyWithService: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: NO_SERVICE('transcription'),
    keyNoServices: NO_SERVICE('transcription'),
    keyAll: 'ws_user',
    keyOfDeletedWorkspace: [403, /transcription/],
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: KEY_ONLY,
    user: KEY_ONLY,
    waiting: KEY_ONLY,
  },
  workspaceOwner: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: SESSION_ONLY,
    keyNoServices: SESSION_ONLY,
    keyAll: SESSION_ONLY,
    keyOfDeletedWorkspace: SESSION_ONLY,
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: 'ws_owner2', // the route's :id (see request below)
    user: NOT_FOUND,
    waiting: WAITING,
  },
  instanceOwner: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: SESSION_ONLY,
    keyNoServices: SESSION_ONLY,
    keyAll: SESSION_ONLY,
    keyOfDeletedWorkspace: SESSION_ONLY,
    uploadGrant: WRONG_GRANT,
    realtimeGrant: WRONG_GRANT,
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: 'ws_owner',
    user: NOT_OWNER,
    waiting: WAITING,
  },
  grantOrPublic: {
    none: 'none',
    badKey: 'none',
    expiredSession: 'none',
    keyAssets: 'none',
    keyNoServices: 'none',
    keyAll: 'none',
    keyOfDeletedWorkspace: 'none',
    uploadGrant: 'none',
    realtimeGrant: 'none',
    grantOfDeletedWorkspace: 'none',
    owner: 'none',
    user: 'none',
    waiting: 'none',
  },
  grantOrKey: {
    none: NEEDS_CREDENTIAL,
    badKey: BAD_KEY,
    expiredSession: EXPIRED,
    keyAssets: NO_SERVICE('realtime'),
    keyNoServices: NO_SERVICE('realtime'),
    keyAll: 'ws_user',
    keyOfDeletedWorkspace: NO_SERVICE('realtime'),
    uploadGrant: WRONG_GRANT,
    realtimeGrant: 'ws_user',
    grantOfDeletedWorkspace: WRONG_GRANT,
    owner: KEY_ONLY,
    user: KEY_ONLY,
    waiting: KEY_ONLY,
  },
};

type Actual = string | [number, string];

async function outcome(request: AuthorizeRequest): Promise<Actual> {
  try {
    const { viewer, workspace } = await authorize(request, directory);
    if (workspace === null) return 'none';
    if (viewer.kind === 'session' && !viewer.approved && workspace.id === '') return 'waiting';
    return workspace.id;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return [error.status, error.message];
  }
}

function expectOutcome(actual: Actual, expected: Outcome): void {
  if (typeof expected === 'string') expect(actual).toBe(expected);
  else expect(actual).toEqual([expected[0], expect.stringMatching(expected[1])]);
}

describe('authorize', () => {
  const rows = Object.entries(table).flatMap(([routeName, byCredential]) =>
    Object.entries(byCredential).map(([credentialName, expected]) => ({
      routeName: routeName as RouteName,
      credentialName: credentialName as CredentialName,
      expected,
    })),
  );

  it('has a row for every credential on every route shape', () => {
    expect(rows).toHaveLength(Object.keys(routes).length * Object.keys(credentials).length);
  });

  it.each(rows)('$credentialName on $routeName', async ({ routeName, credentialName, expected }) => {
    const actual = await outcome({
      route: routes[routeName],
      identified: credentials[credentialName],
      params: { id: 'ws_owner2' },
    });
    expectOutcome(actual, expected);
  });

  /** X-Folio-Workspace, and `:id` on workspace-owner routes: [route, credential, header, :id, expected]. */
  const workspaceCases: Array<[RouteName, CredentialName, string | undefined, string | undefined, Outcome]> =
    [
      ['sessionOrKey', 'owner', undefined, undefined, 'ws_owner'],
      ['sessionOrKey', 'owner', 'ws_owner2', undefined, 'ws_owner2'],
      ['sessionOrKey', 'owner', 'ws_owner', undefined, 'ws_owner'],
      ['sessionOrKey', 'owner', 'ws_user', undefined, NOT_FOUND],
      ['sessionOrKey', 'owner', 'ws_missing', undefined, NOT_FOUND],
      ['sessionOrKey', 'user', 'ws_owner2', undefined, NOT_FOUND],
      ['sessionOrKey', 'user', 'ws_user', undefined, 'ws_user'],
      ['sessionOrKey', 'waiting', 'ws_owner', undefined, WAITING],
      ['sessionOrKeyUnapproved', 'waiting', 'ws_owner', undefined, 'waiting'],
      // a key always acts on its own workspace: the header cannot move it
      ['sessionOrKey', 'keyAssets', 'ws_owner', undefined, 'ws_owner2'],
      ['sessionOrKey', 'keyAll', 'ws_owner', undefined, 'ws_user'],
      ['grantOrKey', 'realtimeGrant', 'ws_owner', undefined, 'ws_user'],
      // workspace-owner routes act on :id, whatever the header says
      ['workspaceOwner', 'owner', undefined, 'ws_owner', 'ws_owner'],
      ['workspaceOwner', 'owner', 'ws_user', 'ws_owner2', 'ws_owner2'],
      ['workspaceOwner', 'owner', 'ws_owner2', 'ws_user', NOT_FOUND],
      ['workspaceOwner', 'owner', undefined, 'ws_missing', NOT_FOUND],
      ['workspaceOwner', 'user', undefined, 'ws_user', 'ws_user'],
      ['workspaceOwner', 'user', 'ws_user', 'ws_owner', NOT_FOUND],
      ['instanceOwner', 'owner', 'ws_owner2', undefined, 'ws_owner2'],
      ['instanceOwner', 'owner', 'ws_user', undefined, NOT_FOUND],
      ['instanceOwner', 'user', 'ws_user', undefined, NOT_OWNER],
    ];

  it.each(workspaceCases)(
    '%s as %s with X-Folio-Workspace %s and :id %s',
    async (routeName, credentialName, header, id, expected) => {
      const actual = await outcome({
        route: routes[routeName],
        identified: credentials[credentialName],
        params: id ? { id } : {},
        requestedWorkspace: header,
      });
      expectOutcome(actual, expected);
    },
  );
});
