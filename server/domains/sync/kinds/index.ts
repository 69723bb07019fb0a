// The kinds that sync, in the order a page of them is written: an asset before the transcript or chart that refers
// to it, a publication's versions before the item, diagrams and charts before the artifacts that embed them.
import pMap from 'p-map';
import type { Change } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { TranscriptService } from '../../transcripts/service.js';
import type { UploadService } from '../../uploads/service.js';
import { contentHash } from '../protocol/content-hash.js';
import { DELETED, type SyncKind } from '../protocol/schema.js';
import { assetAdapter } from './asset.js';
import { type PublishingDeps, publicationAdapters } from './publication.js';
import { transcriptAdapter } from './transcript.js';
import type { KindAdapter, Payload } from './types.js';

export type Kinds = ReturnType<typeof createKinds>;

/** The services whose records travel: both sides read and write them through the kinds. */
export type KindDeps = {
  assets: AssetService;
  uploads: Pick<UploadService, 'createFromFile'>;
  transcripts: TranscriptService;
} & PublishingDeps;

/** Lanes written side by side: enough that the records waiting on one commit fill the next (unit-batcher.ts). */
const LANES = 64;

export function createKinds(deps: KindDeps) {
  const list: KindAdapter[] = [
    assetAdapter(deps.assets, deps.uploads),
    transcriptAdapter(deps.transcripts),
    ...publicationAdapters(deps),
  ];
  const byKind = new Map(list.map((k) => [k.kind, k]));
  const byCollection = new Map(list.map((k) => [k.collection.name, k]));
  const rank = new Map(list.map((k, i) => [k.kind, i]));
  return {
    list,
    of: (kind: SyncKind) => byKind.get(kind)!,
    ofCollection: (name: string) => byCollection.get(name),
    /** The hash of a payload of `kind`, or DELETED for none. */
    hash: (kind: SyncKind, payload: Payload | null | undefined) =>
      payload ? contentHash(kind, byKind.get(kind)!.hashed(payload)) : DELETED,
    order: (kind: SyncKind) => rank.get(kind) ?? list.length,
    /**
     * The changes that may sync, in their order, up to the first that must wait (a write left half done that may
     * still be finished); `waitAt` is that one's seq, before which a feed stops.
     */
    async syncable<C extends Change>(
      workspaceId: string,
      changes: C[],
    ): Promise<{ changes: C[]; waitAt?: number }> {
      const verdicts = new Map<string, 'wait' | 'skip'>();
      for (const adapter of list) {
        const rows = changes
          .filter((c) => c.row && c.collection === adapter.collection.name)
          .map((c) => c.row!);
        if (!adapter.withheld || rows.length === 0) continue;
        for (const [id, verdict] of await adapter.withheld(workspaceId, rows))
          verdicts.set(`${adapter.collection.name}:${id}`, verdict);
      }
      const out: C[] = [];
      for (const change of changes) {
        const verdict = change.row ? verdicts.get(`${change.collection}:${change.id}`) : undefined;
        if (verdict === 'wait') return { changes: out, waitAt: change.seq };
        if (verdict !== 'skip') out.push(change);
      }
      return { changes: out };
    },
    /**
     * Runs `write` over records in the order they must be written: kind after kind, and within a kind the records
     * of one lane (a publication's versions) one after another in position order, other records side by side.
     */
    async inOrder<T>(
      records: T[],
      refOf: (record: T) => { kind: SyncKind; id: string },
      write: (record: T) => Promise<void>,
    ): Promise<void> {
      const steps = new Map<number, Map<string, Array<{ record: T; position: number }>>>();
      for (const record of records) {
        const { kind, id } = refOf(record);
        const { lane, position } = byKind.get(kind)?.order?.(id) ?? { lane: `${kind}:${id}`, position: 0 };
        const step = rank.get(kind) ?? list.length;
        if (!steps.has(step)) steps.set(step, new Map());
        const lanes = steps.get(step)!;
        if (!lanes.has(lane)) lanes.set(lane, []);
        lanes.get(lane)!.push({ record, position });
      }
      for (const step of [...steps.keys()].sort((a, b) => a - b)) {
        const lanes = [...steps.get(step)!.values()].map((lane) =>
          lane.sort((a, b) => a.position - b.position),
        );
        await pMap(
          lanes,
          async (lane) => {
            for (const { record } of lane) await write(record);
          },
          { concurrency: LANES },
        );
      }
    },
  };
}
