/** Identity: sign-in links, sessions, profiles and the invite-only waitlist (spec §5, DESIGN §2). */
import type { Config } from '../../config.js';
import { notFound } from '../../http/errors.js';
import type { Viewer } from '../../http/viewer.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { WorkspaceService } from '../workspaces/service.js';
import type { Profile, SessionRow, SignInTokenRow, User, WaitlistEntry } from './schema.js';
import { hashToken, newToken } from './tokens.js';

const SESSION_DAYS = 30;
const LINK_MINUTES = 15;

export type IdentityDeps = {
  store: Store;
  config: Config;
  workspaces: WorkspaceService;
  log: (line: string) => void;
};

export function createIdentityService({ store, config, workspaces, log }: IdentityDeps) {
  const users = store.instance<User>('users');
  const sessions = store.instance<SessionRow>('sessions');
  const links = store.instance<SignInTokenRow>('sign-in-links');
  const waitlist = store.instance<WaitlistEntry>('waitlist');
  const recentLinks: { email: string; url: string; expiresAt: string }[] = [];
  const now = () => new Date().toISOString();

  const userByEmail = (email: string) => users.filter((u) => u.email === email)[0];
  const entryOf = (email: string) => waitlist.filter((e) => e.email === email)[0];
  const isOwnerEmail = (email: string) => email === config.ownerEmail;

  /** The owner is always on the safelist as invited (DESIGN §2). */
  async function bootstrapOwner(): Promise<void> {
    await setStatus(config.ownerEmail, 'invited');
  }

  async function setStatus(email: string, status: WaitlistEntry['status']): Promise<WaitlistEntry> {
    const entry = entryOf(email);
    if (entry)
      return entry.status === status
        ? entry
        : (await waitlist.update(entry.id, { status, updatedAt: now() }))!;
    const at = now();
    return waitlist.insert({ id: newId('wl'), email, status, createdAt: at, updatedAt: at });
  }

  /**
   * Mints a one-time sign-in link; without a mailer it is printed and listed for the owner. The start-up
   * owner link is printed by its caller as `Owner sign-in:` instead (`announce: false`).
   */
  async function mintSignInLink(email: string, origin: string, { announce = true } = {}): Promise<string> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + LINK_MINUTES * 60_000).toISOString();
    await links.insert({ id: hashToken(token), email, createdAt: now(), expiresAt });
    const url = `${origin}/auth/callback?token=${token}`;
    if (announce) {
      recentLinks.unshift({ email, url, expiresAt });
      recentLinks.splice(50);
      log(`Sign-in link for ${email}: ${url}`);
    }
    return url;
  }

  /** Redeems a link once. Invited → approved session (first time: profile + personal workspace); else pending. */
  async function redeemLink(token: string): Promise<{ token: string; maxAgeMs: number } | undefined> {
    const link = links.find(hashToken(token));
    if (!link || link.usedAt || link.expiresAt < now()) return undefined;
    await links.update(link.id, { usedAt: now() });
    const entry = entryOf(link.email);
    const user = entry?.status === 'invited' ? await ensureUser(link.email) : undefined;
    if (!entry) await setStatus(link.email, 'pending');
    const sessionToken = newToken();
    const maxAgeMs = SESSION_DAYS * 86_400_000;
    await sessions.insert({
      id: hashToken(sessionToken),
      email: link.email,
      userId: user?.id ?? null,
      createdAt: now(),
      expiresAt: new Date(Date.now() + maxAgeMs).toISOString(),
    });
    return { token: sessionToken, maxAgeMs };
  }

  async function ensureUser(email: string): Promise<User> {
    const existing = userByEmail(email);
    if (existing) return existing;
    const at = now();
    const user = await users.insert({
      id: newId('usr'),
      email,
      name: email.split('@')[0],
      createdAt: at,
      updatedAt: at,
    });
    await workspaces.create(user.id, 'Personal', { personal: true });
    return user;
  }

  function resolveSession(token: string): Extract<Viewer, { kind: 'session' }> | undefined {
    const row = sessions.find(hashToken(token));
    if (!row || row.expiresAt < now()) return undefined;
    return {
      kind: 'session',
      sessionId: row.id,
      email: row.email,
      userId: row.userId,
      approved: row.userId !== null,
      isInstanceOwner: isOwnerEmail(row.email),
    };
  }

  async function signOut(sessionId: string): Promise<void> {
    await sessions.remove(sessionId);
  }

  /** Invites an email; sessions it already holds become approved on their next request. */
  async function invite(email: string): Promise<WaitlistEntry> {
    const entry = await setStatus(email, 'invited');
    const pendingSessions = sessions.filter((s) => s.email === email && s.userId === null);
    if (pendingSessions.length > 0) {
      const user = await ensureUser(email);
      for (const s of pendingSessions) await sessions.update(s.id, { userId: user.id });
    }
    return entry;
  }

  async function joinWaitlist(email: string): Promise<WaitlistEntry> {
    return entryOf(email) ?? setStatus(email, 'pending');
  }

  function profile(userId: string): Profile {
    const user = users.find(userId);
    if (!user) throw notFound('Profile');
    const { id, email, name, createdAt } = user;
    return { id, email, name, createdAt, isApproved: true, isInstanceOwner: isOwnerEmail(email) };
  }

  async function updateProfile(userId: string, patch: { name: string }): Promise<Profile> {
    await users.update(userId, { ...patch, updatedAt: now() });
    return profile(userId);
  }

  const listWaitlist = () => waitlist.all().reverse();
  const listSignInLinks = () => recentLinks.filter((l) => l.expiresAt > now());

  return {
    bootstrapOwner,
    mintSignInLink,
    redeemLink,
    resolveSession,
    signOut,
    invite,
    joinWaitlist,
    listWaitlist,
    listSignInLinks,
    profile,
    updateProfile,
    userOf: (userId: string) => users.find(userId),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
