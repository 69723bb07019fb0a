import { z } from 'zod';

export const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ pattern: z.regexes.html5Email, message: 'must be a valid email address' }))
  .transform((e) => e.toLowerCase());

export const Profile = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  isApproved: z.literal(true),
  isInstanceOwner: z.boolean(),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof Profile>;

export const WorkspaceSummary = z.object({ id: z.string(), name: z.string(), ownerId: z.string() });

export const Me = z.union([
  z.object({
    isApproved: z.literal(true),
    profile: Profile,
    workspace: WorkspaceSummary,
    viaKey: z.boolean(),
    key: z
      .object({ id: z.string(), name: z.string(), prefix: z.string(), services: z.array(z.string()) })
      .optional()
      .describe('The API key making this call, when one is'),
  }),
  z.object({ isApproved: z.literal(false), email: z.string() }),
]);

export const UpdateProfileBody = z.strictObject({ name: z.string().trim().min(1).max(100) });

export const SignInBody = z.strictObject({ email: Email });
export const CallbackQuery = z.object({ token: z.string().min(1).max(200) });

export const WaitlistStatus = z.enum(['pending', 'invited']);
export const WaitlistEntry = z.object({
  id: z.string(),
  email: z.string(),
  status: WaitlistStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WaitlistEntry = z.infer<typeof WaitlistEntry>;
export const JoinWaitlistBody = z.strictObject({ email: Email });
export const InviteBody = z.strictObject({ email: Email });
export const SignInLink = z.object({ email: z.string(), url: z.string(), expiresAt: z.string() });

export type User = { id: string; email: string; name: string; createdAt: string; updatedAt: string };
export type SessionRow = {
  id: string;
  email: string;
  userId: string | null;
  createdAt: string;
  expiresAt: string;
};
export type SignInTokenRow = {
  id: string;
  email: string;
  createdAt: string;
  expiresAt: string;
  usedAt?: string;
  /** Only for a link announced without a mailer: the owner lists it to pass on by hand (from any node). */
  url?: string;
};
