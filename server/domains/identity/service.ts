/** Identity: sign-in links, sessions, profiles and the invite-only waitlist (docs/api.md, docs/headless.md). */
import type { Config } from '../../config.js';
import { notFound } from '../../http/errors.js';
import { hashSecret } from '../../http/secret-hash.js';
import type { Viewer } from '../../http/viewer.js';
import type { Logger } from '../../log.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/types.js';
import type { WorkspaceService } from '../workspaces/service.js';
import * as collections from './collections.js';
import { createMailer } from './mailer.js';
import type { Profile, User, WaitlistEntry } from './schema.js';
import { newToken } from './tokens.js';

const SESSION_DAYS = 30;
const LINK_MINUTES = 15;

export type IdentityDeps = {
  store: Store;
  config: Config;
  workspaces: WorkspaceService;
  log: Logger;
};

export function createIdentityService({ store, config, workspaces, log }: IdentityDeps) {
  const users = store.instance(collections.users);
  const sessions = store.instance(collections.sessions);
  const links = store.instance(collections.signInLinks);
  const waitlist = store.instance(collections.waitlist);
  const mailer = config.smtp ? createMailer(config.smtp, log) : undefined;
  const now = () => new Date().toISOString();

  const userByEmail = async (email: string) => (await store.lookup(collections.users, 'email', email))?.row;
  const entryOf = async (email: string) => (await store.lookup(collections.waitlist, 'email', email))?.row;
  const isOwnerEmail = (email: string) => email === config.ownerEmail;

  /** The owner is always on the safelist as invited (docs/headless.md). */
  async function bootstrapOwner(): Promise<void> {
    await setStatus(config.ownerEmail, 'invited');
  }

  async function setStatus(email: string, status: WaitlistEntry['status']): Promise<WaitlistEntry> {
    const entry = await entryOf(email);
    if (entry)
      return entry.status === status
        ? entry
        : ((await waitlist.update(entry.id, { status, updatedAt: now() })) ?? entry);
    const at = now();
    return waitlist
      .insert({ id: newId('wl'), email, status, createdAt: at, updatedAt: at })
      .catch(async (error) => {
        const raced = await entryOf(email); // another request added it first: it wins
        if (!raced) throw error;
        return raced;
      });
  }

  /**
   * Mints a one-time sign-in link and sends it by email; without a mailer it is printed and listed for the owner
   * (kept with the link's row, so every node lists it). The start-up owner link is printed by its caller as
   * `Owner sign-in:` instead (`announce: false`).
   */
  async function mintSignInLink(email: string, origin: string, { announce = true } = {}): Promise<string> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + LINK_MINUTES * 60_000).toISOString();
    const url = `${origin}/auth/callback?token=${token}`;
    const listed = announce && !mailer;
    await links.insert({
      id: hashSecret(token),
      email,
      createdAt: now(),
      expiresAt,
      ...(listed ? { url } : {}),
    });
    if (announce && mailer) await mailer.sendSignInLink(email, url, LINK_MINUTES);
    if (listed) log.info(`Sign-in link for ${email}: ${url}`);
    return url;
  }

  /** Redeems a link once. Invited → approved session (first time: profile + personal workspace); else pending. */
  async function redeemLink(token: string): Promise<{ token: string; maxAgeMs: number } | undefined> {
    const id = hashSecret(token);
    const at = now();
    // One step: of two requests racing with the same link, exactly one redeems it.
    const link = await links.update(id, { usedAt: at }, { if: { usedAt: null, expiresAt: { gt: at } } });
    if (!link) return undefined;
    const entry = await entryOf(link.email);
    const user = entry?.status === 'invited' ? await ensureUser(link.email) : undefined;
    if (!entry) await setStatus(link.email, 'pending');
    const sessionToken = newToken();
    const maxAgeMs = SESSION_DAYS * 86_400_000;
    await sessions.insert({
      id: hashSecret(sessionToken),
      email: link.email,
      userId: user?.id ?? null,
      createdAt: now(),
      expiresAt: new Date(Date.now() + maxAgeMs).toISOString(),
    });
    return { token: sessionToken, maxAgeMs };
  }

  async function ensureUser(email: string): Promise<User> {
    const existing = await userByEmail(email);
    if (existing) return existing;
    const at = now();
    const user = await users
      .insert({ id: newId('usr'), email, name: email.split('@')[0], createdAt: at, updatedAt: at })
      .catch(async (error) => {
        const raced = await userByEmail(email);
        if (!raced) throw error;
        return raced;
      });
    if (!(await workspaces.personalOf(user.id)))
      await workspaces.create(user.id, 'Personal', { personal: true });
    return user;
  }

  async function resolveSession(token: string): Promise<Extract<Viewer, { kind: 'session' }> | undefined> {
    const row = await sessions.get(hashSecret(token));
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
    const pendingSessions = await sessions.all({ email, userId: null });
    if (pendingSessions.length > 0) {
      const user = await ensureUser(email);
      for (const s of pendingSessions) await sessions.update(s.id, { userId: user.id });
    }
    return entry;
  }

  async function joinWaitlist(email: string): Promise<WaitlistEntry> {
    return (await entryOf(email)) ?? setStatus(email, 'pending');
  }

  async function profile(userId: string): Promise<Profile> {
    const user = await users.get(userId);
    if (!user) throw notFound('Profile');
    const { id, email, name, createdAt } = user;
    return { id, email, name, createdAt, isApproved: true, isInstanceOwner: isOwnerEmail(email) };
  }

  async function updateProfile(userId: string, patch: { name: string }): Promise<Profile> {
    await users.update(userId, { ...patch, updatedAt: now() });
    return profile(userId);
  }

  /** Removes sessions past their expiry and sign-in links a day past theirs (kept a while so a late click reads 410). */
  async function sweep(): Promise<Record<string, number>> {
    const at = now();
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    let expiredSessions = 0;
    let expiredLinks = 0;
    for (const row of await sessions.all({ expiresAt: { lt: at } }))
      if (await sessions.remove(row.id, { if: { expiresAt: { lt: at } } })) expiredSessions++;
    for (const row of await links.all({ expiresAt: { lt: dayAgo } }))
      if (await links.remove(row.id, { if: { expiresAt: { lt: dayAgo } } })) expiredLinks++;
    return { 'expired sessions': expiredSessions, 'expired sign-in links': expiredLinks };
  }

  const listWaitlist = () => waitlist.all({}, { orderBy: [['createdAt', 'desc']] });
  /** The 50 newest announced links that have not expired. */
  async function listSignInLinks() {
    const page = await links.list({
      where: { expiresAt: { gt: now() } },
      orderBy: [['createdAt', 'desc']],
      limit: 500,
    });
    return page.rows
      .filter((row) => row.url)
      .slice(0, 50)
      .map(({ email, url, expiresAt }) => ({ email, url: url!, expiresAt }));
  }

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
    userOf: (userId: string) => users.get(userId),
    /** The instance owner's user id; undefined until the owner has signed in once. */
    ownerId: async () => (await userByEmail(config.ownerEmail))?.id,
    sweep,
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
