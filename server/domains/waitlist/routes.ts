import { z } from 'zod';
import { defineRoute } from '../../deps.js';
import { InviteBody, JoinWaitlistBody, SignInLink, WaitlistEntry } from '../identity/schema.js';

export const joinWaitlist = defineRoute({
  method: 'POST',
  path: '/api/v1/waitlist',
  auth: 'public',
  body: JoinWaitlistBody,
  status: 202,
  response: z.object({ email: z.string(), status: z.literal('received') }),
  summary: 'Join the private-beta waitlist (public, no credential)',
  tag: 'waitlist',
  // The answer is the same whether or not the email was already listed, so it reveals nothing about others.
  handler: async ({ body }, { identity }) => {
    await identity.joinWaitlist(body.email);
    return { email: body.email, status: 'received' as const };
  },
});

export const listWaitlist = defineRoute({
  method: 'GET',
  path: '/api/v1/waitlist',
  auth: 'instanceOwner',
  response: z.object({ data: z.array(WaitlistEntry) }),
  summary: 'List waitlist entries, newest first (instance owner only)',
  tag: 'waitlist',
  handler: async (_input, { identity }) => ({ data: await identity.listWaitlist() }),
});

export const inviteFromWaitlist = defineRoute({
  method: 'POST',
  path: '/api/v1/waitlist/invite',
  auth: 'instanceOwner',
  body: InviteBody,
  response: WaitlistEntry,
  summary: 'Invite an email: its next sign-in is approved (instance owner only)',
  tag: 'waitlist',
  handler: ({ body }, { identity }) => identity.invite(body.email),
});

export const listSignInLinks = defineRoute({
  method: 'GET',
  path: '/api/v1/sign-in-links',
  auth: 'instanceOwner',
  response: z.object({ data: z.array(SignInLink) }),
  summary: 'Sign-in links minted without a mailer, to pass on by hand (instance owner only)',
  tag: 'waitlist',
  handler: async (_input, { identity }) => ({ data: await identity.listSignInLinks() }),
});

export const waitlistRoutes = { joinWaitlist, listWaitlist, inviteFromWaitlist, listSignInLinks };
