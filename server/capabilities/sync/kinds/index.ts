// The kinds that sync, in the order a page of them is pushed (an asset before the transcript that refers to it).
import type { AssetService } from '../../assets/service.js';
import type { TranscriptService } from '../../transcripts/service.js';
import { contentHash } from '../content-hash.js';
import { DELETED, type SyncKind } from '../schema.js';
import { assetAdapter } from './asset.js';
import { transcriptAdapter } from './transcript.js';
import type { KindAdapter, Payload } from './types.js';

export type Kinds = ReturnType<typeof createKinds>;

export function createKinds(deps: { assets: AssetService; transcripts: TranscriptService }) {
  const list: KindAdapter[] = [assetAdapter(deps.assets), transcriptAdapter(deps.transcripts)];
  const byKind = new Map(list.map((k) => [k.kind, k]));
  const byCollection = new Map(list.map((k) => [k.collection.name, k]));
  return {
    list,
    of: (kind: SyncKind) => byKind.get(kind)!,
    ofCollection: (name: string) => byCollection.get(name),
    /** The hash of a payload of `kind`, or DELETED for none. */
    hash: (kind: SyncKind, payload: Payload | null | undefined) =>
      payload ? contentHash(kind, byKind.get(kind)!.hashed(payload)) : DELETED,
    order: (kind: SyncKind) => list.findIndex((k) => k.kind === kind),
  };
}
