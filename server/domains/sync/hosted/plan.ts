// Plan: before anything is sent, the server says which records it already has as they are, which it will take,
// which would conflict, which blobs it lacks, and the totals a client shows as progress.
import type { ServiceName } from '../../../http/viewer.js';
import type { Kinds } from '../kinds/index.js';
import type { Plan, PlanBody, Skipped, SyncKind } from '../protocol/schema.js';
import { basedOnHead, type Head, type Heads } from './heads.js';
import type { WorkspaceBlobs } from './workspace-blobs.js';

export function createPlanner({
  kinds,
  heads,
  blobs,
}: {
  kinds: Kinds;
  heads: Heads;
  blobs: WorkspaceBlobs;
}) {
  return async function plan(workspaceId: string, services: ServiceName[], body: PlanBody): Promise<Plan> {
    const skipped = new Map<string, Skipped>();
    const found = new Map<string, Head>();
    for (const adapter of kinds.list) {
      const refs = body.records.filter((r) => r.kind === adapter.kind);
      if (refs.length === 0) continue;
      if (!services.includes(adapter.service)) {
        skipped.set(adapter.kind, { ...skipReason(adapter.kind, adapter.service), count: refs.length });
        continue;
      }
      const byId = await heads.many(workspaceId, adapter, [...new Set(refs.map((r) => r.id))]);
      for (const [id, head] of byId) found.set(`${adapter.kind}:${id}`, head);
    }
    const records: Plan['records'] = body.records.map((ref) => {
      const head = found.get(`${ref.kind}:${ref.id}`);
      if (!head) return { kind: ref.kind, id: ref.id, action: 'skip', seq: 0, sha256: null };
      const action =
        head.hash === ref.sha256 ? 'unchanged' : basedOnHead(head, ref.baseSeq) ? 'push' : 'conflict';
      return { kind: ref.kind, id: ref.id, action, seq: head.seq, sha256: head.seq ? head.hash : null };
    });
    const wanted = body.blobs.filter((b) => b.size > 0);
    const held = await blobs.held(
      workspaceId,
      wanted.map((b) => b.sha256),
    );
    const missing = [
      ...new Map(wanted.filter((b) => !held.has(b.sha256)).map((b) => [b.sha256, b])).values(),
    ];
    const count = (action: string) => records.filter((r) => r.action === action).length;
    return {
      records,
      missingBlobs: missing.map((b) => b.sha256),
      skipped: [...skipped.values()],
      totals: {
        records: records.length,
        push: count('push'),
        unchanged: count('unchanged'),
        conflicts: count('conflict'),
        skipped: count('skip'),
        blobs: body.blobs.length,
        missingBlobs: missing.length,
        missingBytes: missing.reduce((sum, b) => sum + b.size, 0),
      },
    };
  };
}

export const skipReason = (kind: SyncKind, service: string): Skipped => ({
  kind,
  service,
  reason: `This key is not enabled for the ${service} service, so ${kind.replace('-', ' ')} records do not sync`,
});
