/** Liveness and readiness of this node, for /health and /ready: which backend and node answer, and whether the store does. */
import { serviceUnavailable } from '../../http/errors.js';
import type { Store } from '../../store/types.js';

export type NodeStatus = { ok: true; backend: string; node: string };

export function createNodeStatus({
  store,
  node,
  closing,
}: {
  store: Store;
  node: string;
  closing: () => boolean;
}) {
  const live = (): NodeStatus => ({ ok: true, backend: store.backend, node });
  return {
    live,
    async ready(): Promise<NodeStatus> {
      if (closing()) throw serviceUnavailable('This node is shutting down');
      await store.schemaVersion().catch(() => {
        throw serviceUnavailable('The store does not answer');
      });
      return live();
    },
  };
}

export type NodeStatusService = ReturnType<typeof createNodeStatus>;
