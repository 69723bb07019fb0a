// Which workspace the dashboard acts on: `null` is the personal one (no header), otherwise its id is sent as
// X-Folio-Workspace (docs/api.md, "Credentials and workspaces"). Kept per browser in localStorage.
import { useSyncExternalStore } from 'react';

const KEY = 'folio.workspace';
const listeners = new Set<() => void>();
let current: string | null = read();

function read(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export const currentWorkspaceId = (): string | null => current;

export function selectWorkspace(id: string | null): void {
  if (id === current) return;
  current = id;
  try {
    if (id) localStorage.setItem(KEY, id);
    else localStorage.removeItem(KEY);
  } catch {
    // private mode: the choice lasts for this tab only
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The selected workspace id (null = personal); re-renders when it changes. */
export const useWorkspaceId = () => useSyncExternalStore(subscribe, currentWorkspaceId);

/** Query keys are scoped by workspace so switching never shows another workspace's cached data. */
export const wsKey = (...parts: unknown[]) => ['ws', current ?? 'personal', ...parts] as const;
