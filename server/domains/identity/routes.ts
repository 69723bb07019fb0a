import { z } from 'zod';
import { defineRawRoute, defineRoute } from '../../deps.js';
import { SESSION_COOKIE } from '../../http/authenticate.js';
import { gone } from '../../http/errors.js';
import { reply } from '../../http/reply.js';
import { CallbackQuery, Me, Profile, SignInBody, UpdateProfileBody } from './schema.js';

export const getMe = defineRoute({
  method: 'GET',
  path: '/api/v1/me',
  auth: ['session', 'key'],
  allowUnapproved: true,
  response: Me,
  tool: 'account_me',
  summary: 'Your profile and the workspace this credential acts on',
  description:
    'A signed-in session that is not yet approved gets `{ isApproved: false, email }` (not an error).',
  handler: async ({ viewer, workspace }, { identity, keys }) => {
    if (viewer.kind === 'session' && !viewer.userId)
      return { isApproved: false as const, email: viewer.email };
    const profile = await identity.profile(viewer.kind === 'session' ? viewer.userId! : workspace.ownerId);
    const key = viewer.kind === 'key' ? await keys.describe(viewer.keyId) : undefined;
    const { id, name, ownerId } = workspace;
    return {
      isApproved: true as const,
      profile,
      workspace: { id, name, ownerId },
      viaKey: viewer.kind === 'key',
      ...(key && { key }),
    };
  },
});

export const updateMe = defineRoute({
  method: 'PATCH',
  path: '/api/v1/me',
  auth: 'session',
  body: UpdateProfileBody,
  response: Profile,
  summary: 'Update your profile (session only)',
  handler: ({ viewer, body }, { identity }) => identity.updateProfile(viewer.userId!, body),
});

export const signIn = defineRoute({
  method: 'POST',
  path: '/auth/sign-in',
  auth: 'public',
  body: SignInBody,
  status: 202,
  response: z.object({ status: z.literal('link-sent'), email: z.string() }),
  summary: 'Ask for a one-time sign-in link',
  description:
    'Without a configured mailer the link is printed on the server console and listed for the owner. Following it signs in; an email that is not invited is recorded as pending.',
  tag: 'identity',
  handler: async ({ body, origin }, { identity }) => {
    await identity.mintSignInLink(body.email, origin);
    return { status: 'link-sent' as const, email: body.email };
  },
});

export const signInCallback = defineRawRoute({
  method: 'GET',
  path: '/auth/callback',
  auth: 'public',
  query: CallbackQuery,
  produces: 'text/html',
  summary: 'Redeem a one-time sign-in link: sets the session cookie and redirects to the dashboard',
  tag: 'identity',
  handler: async ({ query, ctx }, { identity, config }) => {
    const session = await identity.redeemLink(query.token);
    if (!session) throw gone('This sign-in link was already used or has expired; ask for a new one');
    const secure = config.publicUrl?.startsWith('https:') ?? false;
    // Behind a TLS-terminating proxy this node speaks plain HTTP; the public URL says the browser does not.
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: session.maxAgeMs,
      secure,
      overwrite: true,
    });
    return reply.redirect('/');
  },
});

export const signOut = defineRawRoute({
  method: 'POST',
  path: '/auth/sign-out',
  auth: 'session',
  allowUnapproved: true,
  summary: 'End this session',
  tag: 'identity',
  handler: async ({ viewer, ctx }, { identity }) => {
    await identity.signOut(viewer.sessionId);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    return reply.empty(204);
  },
});

export const identityRoutes = { getMe, updateMe, signIn, signInCallback, signOut };
