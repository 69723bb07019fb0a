// Deleting a workspace is final: the gate refuses writes into a dropped workspace and lets a drop wait for the
// writes already under way, so nothing lands in (or re-creates) a directory that is being removed.
import { ScopeGone } from './errors.js';

export function createScopeGate() {
  const dropped = new Set<string>();
  const inFlight = new Map<string, number>();
  const idle = new Map<string, () => void>();

  function assertOpen(scope: string): void {
    if (dropped.has(scope)) throw new ScopeGone(scope);
  }

  /** Marks a write into `scope` as under way; call the returned function when it has finished. */
  function enter(scope: string): () => void {
    assertOpen(scope);
    inFlight.set(scope, (inFlight.get(scope) ?? 0) + 1);
    return () => {
      const left = (inFlight.get(scope) ?? 1) - 1;
      if (left > 0) return void inFlight.set(scope, left);
      inFlight.delete(scope);
      idle.get(scope)?.();
    };
  }

  /** Refuses new writes at once; resolves when the ones under way are done. */
  async function drop(scope: string): Promise<void> {
    dropped.add(scope);
    if (!inFlight.has(scope)) return;
    await new Promise<void>((resolve) => idle.set(scope, resolve));
    idle.delete(scope);
  }

  return {
    assertOpen,
    enter,
    drop,
    markDropped: (scope: string) => void dropped.add(scope),
    isDropped: (s: string) => dropped.has(s),
  };
}

export type ScopeGate = ReturnType<typeof createScopeGate>;

/** The workspace a blob key belongs to (`workspaces/<id>/...`), if any. */
export function workspaceOfKey(key: string): string | undefined {
  const [root, id] = key.split('/');
  return root === 'workspaces' && id ? id : undefined;
}
