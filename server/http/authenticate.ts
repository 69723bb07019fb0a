// Turns the credentials on a request into a Viewer. Bearer tokens say what they are by prefix
// (`fk_` API key, each grant kind its own); the session comes from the HttpOnly cookie.
import type { GrantInfo, Viewer } from './viewer.js';

export const SESSION_COOKIE = 'folio_session';
export const KEY_PREFIX = 'fk_';

type Found<T> = Promise<T | undefined>;

export type CredentialResolvers = {
  session(token: string): Found<Extract<Viewer, { kind: 'session' }>>;
  key(secret: string): Found<Extract<Viewer, { kind: 'key' }>>;
  grants: Array<{ prefix: string; resolve(secret: string): Found<GrantInfo> }>;
};

export type Presented = { bearer?: string; sessionToken?: string };

/** `problem` says why a presented credential was refused; routes that need a credential answer 401 with it. */
export type Identified = { viewer: Viewer; problem?: string };

export async function identify(presented: Presented, resolvers: CredentialResolvers): Promise<Identified> {
  const { bearer, sessionToken } = presented;
  if (bearer) return identifyBearer(bearer, resolvers);
  if (sessionToken) {
    const session = await resolvers.session(sessionToken);
    if (session) return { viewer: session };
    return {
      viewer: { kind: 'public' },
      problem: 'Your session has expired or was signed out; sign in again',
    };
  }
  return { viewer: { kind: 'public' } };
}

async function identifyBearer(token: string, resolvers: CredentialResolvers): Promise<Identified> {
  if (token.startsWith(KEY_PREFIX)) {
    const key = await resolvers.key(token);
    return key ? { viewer: key } : { viewer: { kind: 'public' }, problem: 'Invalid or revoked API key' };
  }
  const kind = resolvers.grants.find((g) => token.startsWith(g.prefix));
  if (kind) {
    const grant = await kind.resolve(token);
    return grant
      ? { viewer: { kind: 'grant', grant } }
      : { viewer: { kind: 'public' }, problem: 'Invalid grant' };
  }
  return {
    viewer: { kind: 'public' },
    problem: 'Unrecognised bearer token: expected an API key starting with fk_',
  };
}

export function bearerOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
