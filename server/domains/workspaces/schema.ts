import { z } from 'zod';

export const WorkspaceName = z.string().trim().min(1, 'name must not be empty').max(80);
export const WorkspaceIdParams = z.object({
  id: z.string().regex(/^ws_[0-9A-Za-z]{20}$/, 'not a workspace id'),
});

export const Usage = z.record(z.string(), z.object({ count: z.number(), bytes: z.number() }));
export type Usage = z.infer<typeof Usage>;

export const Workspace = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  personal: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceWithUsage = Workspace.extend({ usage: Usage });

export const CreateWorkspaceBody = z.strictObject({ name: WorkspaceName });
export const RenameWorkspaceBody = z.strictObject({ name: WorkspaceName });
