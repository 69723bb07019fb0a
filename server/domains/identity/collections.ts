import { defineCollection } from '../../store/types.js';
import type { SessionRow, SignInTokenRow, User, WaitlistEntry } from './schema.js';

export const users = defineCollection<User>({
  name: 'users',
  scope: 'instance',
  fields: { createdAt: 'text' },
  unique: ['email'],
});

/** Sessions by the SHA-256 of their cookie token (the row id): the token itself is never stored. */
export const sessions = defineCollection<SessionRow>({
  name: 'sessions',
  scope: 'instance',
  fields: { email: 'text', userId: 'text', expiresAt: 'text', createdAt: 'text' },
});

/** One-time sign-in links by the SHA-256 of their token. */
export const signInLinks = defineCollection<SignInTokenRow>({
  name: 'sign-in-links',
  scope: 'instance',
  fields: { email: 'text', expiresAt: 'text', usedAt: 'text', createdAt: 'text' },
});

export const waitlist = defineCollection<WaitlistEntry>({
  name: 'waitlist',
  scope: 'instance',
  fields: { status: 'text', createdAt: 'text' },
  unique: ['email'],
});
