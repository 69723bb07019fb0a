/** Workspaces: each has one owner; every other record lives inside exactly one of them. */
import { conflict, notFound } from '../../http/errors.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/store.js';
import type { Usage, Workspace } from './schema.js';

/** What a capability tells the workspace about its content: usage for the list, clean-up on delete. */
export type WorkspaceContent = {
  name: string;
  usage?(workspaceId: string): { count: number; bytes: number };
  drop?(workspaceId: string): Promise<void> | void;
};

export function createWorkspaceService({ store }: { store: Store }) {
  const workspaces = store.instance<Workspace>('workspaces');
  const contents: WorkspaceContent[] = [];
  const now = () => new Date().toISOString();

  async function create(ownerId: string, name: string, { personal = false } = {}): Promise<Workspace> {
    const at = now();
    return workspaces.insert({ id: newId('ws'), name, ownerId, personal, createdAt: at, updatedAt: at });
  }

  function usage(workspaceId: string): Usage {
    return Object.fromEntries(contents.filter((c) => c.usage).map((c) => [c.name, c.usage!(workspaceId)]));
  }

  const listOwned = (ownerId: string) =>
    workspaces.filter((w) => w.ownerId === ownerId).map((w) => ({ ...w, usage: usage(w.id) }));

  async function rename(id: string, name: string): Promise<Workspace> {
    const updated = await workspaces.update(id, { name, updatedAt: now() });
    if (!updated) throw notFound('Workspace');
    return updated;
  }

  /** Deletes the workspace with all its records, files and keys. The personal workspace stays. */
  async function remove(id: string): Promise<void> {
    const workspace = workspaces.find(id);
    if (!workspace) throw notFound('Workspace');
    if (workspace.personal) throw conflict('Your personal workspace cannot be deleted');
    await workspaces.remove(id);
    for (const content of contents) await content.drop?.(id);
    await store.dropWorkspace(id);
  }

  return {
    create,
    listOwned,
    rename,
    remove,
    usage,
    get: (id: string) => workspaces.find(id),
    personalOf: (ownerId: string) => workspaces.filter((w) => w.ownerId === ownerId && w.personal)[0],
    register: (content: WorkspaceContent) => void contents.push(content),
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
