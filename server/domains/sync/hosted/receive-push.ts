// Push: each record is written only over the version it was based on (`baseSeq`), in one conditional store write.
// If the server moved on, the answer is 409 with the server's version, which wins; nothing is overwritten. An
// applied push leaves a receipt under its idempotency key, so a retry whose answer was lost gets the same answer
// instead of a conflict with itself. Each record is written with the key's services, which bound what it may read or
// embed as they bound the same REST call (a refusal is that record's 403, naming the service).
import { badRequest, HttpError } from '../../../http/errors.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { Store } from '../../../store/types.js';
import { syncReceipts } from '../collections.js';
import type { Kinds } from '../kinds/index.js';
import { type KindAdapter, MissingBlob, type Payload } from '../kinds/types.js';
import { batchKey, pushKey } from '../protocol/content-hash.js';
import { DELETED, type PushItem, type PushResult } from '../protocol/schema.js';
import { basedOnHead, type Heads } from './heads.js';
import { skipReason } from './plan.js';
import type { WorkspaceBlobs } from './workspace-blobs.js';

const MAX_RECORD_BLOB_BYTES = 64 << 20;

export function createPusher(deps: { store: Store; kinds: Kinds; heads: Heads; blobs: WorkspaceBlobs }) {
  const { store, kinds, heads, blobs } = deps;
  const receipts = (workspaceId: string) => store.collection(syncReceipts, workspaceId);

  async function push(
    workspaceId: string,
    services: ServiceName[],
    items: PushItem[],
    key: string | undefined,
  ) {
    if (!key)
      throw badRequest(
        'Send an Idempotency-Key header: the SHA-256 of the records’ push keys (docs/sync.md)',
      );
    if (key !== batchKey(items))
      throw badRequest(
        'Idempotency-Key does not match these records; derive it from them as docs/sync.md says',
      );
    // Records of one request are distinct, so those that may go side by side do (their store writes share journal
    // flushes, and new assets their units: unit-batcher.ts); kinds in order, and a publication's versions one after
    // another before the item.
    const results: PushResult[] = new Array(items.length);
    await kinds.inOrder(
      [...items.keys()],
      (i) => items[i],
      async (i) => {
        results[i] = await pushOne(workspaceId, services, items[i]);
      },
    );
    return { results };
  }

  async function pushOne(workspaceId: string, services: ServiceName[], item: PushItem): Promise<PushResult> {
    const adapter = kinds.of(item.kind);
    const base = { kind: item.kind, id: item.id };
    if (!services.includes(adapter.service))
      return {
        ...base,
        status: 403,
        outcome: 'skipped',
        service: adapter.service,
        error: skipReason(item.kind, adapter.service).reason,
      };
    const receipt = await receipts(workspaceId).get(pushKey(item));
    if (receipt)
      return {
        ...base,
        status: 200,
        outcome: 'applied',
        seq: receipt.recordSeq,
        sha256: receipt.sha256,
        replayed: true,
      };
    try {
      const payload = item.sha256 === DELETED ? null : await payloadOf(workspaceId, adapter, item);
      return await apply(workspaceId, adapter, item, payload, services);
    } catch (error) {
      if (error instanceof HttpError) {
        const { service } = error.details;
        return {
          ...base,
          status: error.status,
          outcome: 'failed',
          error: error.message,
          ...(typeof service === 'string' && { service }),
        };
      }
      throw error;
    }
  }

  /** The record as sent, checked: it must hash to what the item says, then pass its kind's schema. */
  async function payloadOf(workspaceId: string, adapter: KindAdapter, item: PushItem): Promise<Payload> {
    const raw =
      item.record ?? (item.recordBlob ? await readRecordBlob(workspaceId, item.recordBlob) : undefined);
    if (!raw) throw badRequest('Send `record` (or `recordBlob`) with every push that is not a delete');
    if (
      kinds.hash(item.kind, adapter.hashed(raw)) !== item.sha256 &&
      kinds.hash(item.kind, raw) !== item.sha256
    )
      throw badRequest(`The record does not hash to ${item.sha256}; it was changed or damaged on the way`);
    const parsed = adapter.schema.safeParse(raw);
    if (!parsed.success)
      throw badRequest(
        `Invalid ${item.kind}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ')}`,
      );
    return parsed.data;
  }

  async function apply(
    workspaceId: string,
    adapter: KindAdapter,
    item: PushItem,
    payload: Payload | null,
    services: ServiceName[],
  ): Promise<PushResult> {
    const base = { kind: item.kind, id: item.id };
    const head = await heads.one(workspaceId, adapter, item.id);
    const unchanged = (h = head): PushResult => ({
      ...base,
      status: 200,
      outcome: 'unchanged',
      seq: h.seq,
      sha256: h.hash,
    });
    if (head.hash === item.sha256) return unchanged();
    const conflict = (h = head): PushResult => ({
      ...base,
      status: 409,
      outcome: 'conflict',
      server: heads.version(adapter, h),
      error: `The server has a later version of this ${item.kind} (seq ${h.seq}); it wins and yours is kept as a conflict copy`,
    });
    if (!basedOnHead(head, item.baseSeq)) return conflict();
    // A delete reaches here only over a live row (deleting a deleted record is `unchanged` above).
    const written = payload
      ? await adapter.put(workspaceId, item.id, payload, head.row ? head.seq : 0, {
          blobs: blobs.sourceFor(workspaceId),
          services,
        })
      : await adapter.remove(workspaceId, item.id, head.seq);
    const now = await heads.one(workspaceId, adapter, item.id);
    // Someone wrote in between: theirs stands. The same version, say from the request of a client that was killed
    // before its answer came and is still being served, is no conflict.
    if (!written) return now.hash === item.sha256 ? unchanged(now) : conflict(now);
    // The staging copies go and the receipt is written side by side: separate collections, separate flushes.
    const staged = [...(payload ? adapter.blobs(payload).map((b) => b.sha256) : []), item.recordBlob];
    await Promise.all([
      ...staged.map((sha) => sha && blobs.consumed(workspaceId, sha)),
      receipts(workspaceId)
        .insert({
          id: pushKey(item),
          kind: item.kind,
          recordId: item.id,
          recordSeq: now.seq,
          sha256: now.hash,
          createdAt: new Date().toISOString(),
        })
        .catch((error) => {
          if ((error as Error).name !== 'StoreConflict') throw error;
        }),
    ]);
    return {
      ...base,
      status: head.row || !payload ? 200 : 201,
      outcome: 'applied',
      seq: now.seq,
      sha256: now.hash,
    };
  }

  async function readRecordBlob(workspaceId: string, sha256: string): Promise<Payload> {
    const place = await blobs.locate(workspaceId, sha256);
    if (!place) throw new MissingBlob(sha256);
    const size = place.size ?? (await store.blobs.stat(place.key))?.size ?? 0;
    if (size > MAX_RECORD_BLOB_BYTES)
      throw badRequest(`A record blob may hold at most ${MAX_RECORD_BLOB_BYTES} bytes`);
    const bytes = await store.blobs.get(place.key, place.range);
    if (!bytes) throw new MissingBlob(sha256);
    const chunks: Buffer[] = [];
    for await (const chunk of bytes) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Payload;
    } catch {
      throw badRequest(`The record blob ${sha256} is not JSON`);
    }
  }

  /** Receipts older than `maxAgeMs`: a client retries within minutes, not months. */
  async function sweep(maxAgeMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - maxAgeMs).toISOString();
    let swept = 0;
    for (const workspaceId of await store.workspacesWith(syncReceipts))
      for (const row of await receipts(workspaceId).all({ createdAt: { lt: cutoff } })) {
        await receipts(workspaceId).remove(row.id);
        swept++;
      }
    return swept;
  }

  return { push, sweep };
}
