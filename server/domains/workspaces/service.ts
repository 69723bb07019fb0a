/** Workspaces: each has one owner; every other record lives inside exactly one of them. */
import { conflict, notFound } from '../../http/errors.js';
import { newId } from '../../store/ids.js';
import type { Store } from '../../store/types.js';
import { workspacesCollection } from './collections.js';
import type { Usage, Workspace } from './schema.js';

/** What a domain tells the workspace about its content: usage for the list, clean-up on delete. */
export type WorkspaceContent = {
  name: string;
  usage?(workspaceId: string): Promise<{ count: number; bytes: number }>;
  drop?(workspaceId: string): Promise<void> | void;
};

export function createWorkspaceService({ store }: { store: Store }) {
  const workspaces = store.instance(workspacesCollection);
  const contents: WorkspaceContent[] = [];
  const now = () => new Date().toISOString();

  async function create(ownerId: string, name: string, { personal = false } = {}): Promise<Workspace> {
    const at = now();
    return workspaces.insert({ id: newId('ws'), name, ownerId, personal, createdAt: at, updatedAt: at });
  }

  async function usage(workspaceId: string): Promise<Usage> {
    const counted = contents.filter((c) => c.usage);
    const values = await Promise.all(counted.map((c) => c.usage!(workspaceId)));
    return Object.fromEntries(counted.map((c, i) => [c.name, values[i]]));
  }

  async function listOwned(ownerId: string) {
    const owned = await workspaces.all({ ownerId }, { orderBy: [['createdAt', 'asc']] });
    return Promise.all(owned.map(async (w) => ({ ...w, usage: await usage(w.id) })));
  }

  async function rename(id: string, name: string): Promise<Workspace> {
    const updated = await workspaces.update(id, { name, updatedAt: now() });
    if (!updated) throw notFound('Workspace');
    return updated;
  }

  /**
   * Deletes the workspace with all its records, files and keys; the personal workspace stays. Its domains stop
   * their work in it first; then the store drops it, so writes still under way into it fail, and a crash part-way
   * is finished at the next start.
   */
  async function remove(id: string): Promise<void> {
    const workspace = await workspaces.get(id);
    if (!workspace) throw notFound('Workspace');
    if (workspace.personal) throw conflict('Your personal workspace cannot be deleted');
    for (const content of contents) await content.drop?.(id);
    await store.dropWorkspace(id);
    await workspaces.remove(id);
  }

  return {
    create,
    listOwned,
    rename,
    remove,
    usage,
    get: (id: string) => workspaces.get(id),
    personalOf: (ownerId: string) => workspaces.findOne({ ownerId, personal: true }),
    register: (content: WorkspaceContent) => void contents.push(content),
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
