// The receiving side of sync (any Folio a desktop syncs to): info, plan, push, the change feed, packs in, blobs out.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { badRequest, notFound } from '../../../http/errors.js';
import { planRange } from '../../../http/range-plan.js';
import { reply } from '../../../http/reply.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { ChunkedUploads } from '../../uploads/chunked/service.js';
import type { Kinds } from '../kinds/index.js';
import { MAX_PACK_BLOBS, MAX_PLAN_RECORDS, MAX_PUSH_RECORDS, type SyncInfo } from '../protocol/schema.js';
import { createFeed } from './change-feed.js';
import { createHeads } from './heads.js';
import { createPlanner } from './plan.js';
import { createPacks, PACK_PURPOSE } from './receive-packs.js';
import { createPusher } from './receive-push.js';
import { createWorkspaceBlobs } from './workspace-blobs.js';

export type HostedDeps = {
  store: Store;
  assets: AssetService;
  kinds: Kinds;
  chunkedUploads: ChunkedUploads;
  limits: { jsonBytes: number; uploadBytes: number };
};

export function createHostedSync({ store, assets, kinds, chunkedUploads, limits }: HostedDeps) {
  const blobs = createWorkspaceBlobs({ store, assets });
  const heads = createHeads({ store, kinds });
  const feed = createFeed({ store, kinds });
  const pusher = createPusher({ store, kinds, heads, blobs });
  const packs = createPacks({ store, chunkedUploads, blobs, maxBytes: limits.uploadBytes });

  async function info(workspace: { id: string; name: string }, services: ServiceName[]): Promise<SyncInfo> {
    return {
      workspace: { id: workspace.id, name: workspace.name },
      services,
      kinds: kinds.list.map((k) => ({
        kind: k.kind,
        service: k.service,
        allowed: services.includes(k.service),
      })),
      skipped: feed.skippedKinds(services),
      head: await feed.head(workspace.id),
      limits: {
        planRecords: MAX_PLAN_RECORDS,
        pushRecords: MAX_PUSH_RECORDS,
        packBlobs: MAX_PACK_BLOBS,
        jsonBytes: limits.jsonBytes,
        uploadBytes: limits.uploadBytes,
      },
    };
  }

  async function putPackPart(workspaceId: string, uploadId: string, index: string, req: IncomingMessage) {
    const upload = await chunkedUploads.find(workspaceId, uploadId);
    if (upload.purpose !== PACK_PURPOSE) throw notFound('Pack');
    return chunkedUploads.putPart(workspaceId, uploadId, index, req);
  }

  /** One blob's bytes, whole or from a Range (a resumed download). */
  async function blob(workspaceId: string, sha256: string, range: string | undefined) {
    const place = await blobs.locate(workspaceId, sha256);
    const size = place && (place.size ?? (await store.blobs.stat(place.key))?.size);
    if (!place || size === undefined) throw notFound('Blob');
    const headers: Record<string, string> = { 'Accept-Ranges': 'bytes', ETag: `"${sha256}"` };
    const plan = range ? planRange(range, size) : ({ status: 200 } as const);
    if (plan.status === 416) throw badRequest(`Range ${range} is outside the blob's ${size} bytes`);
    const r = plan.status === 206 && plan.ranges.length === 1 ? plan.ranges[0] : undefined;
    const base = place.range?.start ?? 0;
    const wanted = r ?? { start: 0, end: size - 1 };
    const body = await store.blobs.get(place.key, { start: base + wanted.start, end: base + wanted.end });
    if (!body) throw notFound('Blob');
    if (r) headers['Content-Range'] = `bytes ${r.start}-${r.end}/${size}`;
    headers['Content-Length'] = String(wanted.end - wanted.start + 1);
    return reply.stream('application/octet-stream', body, headers, r ? 206 : 200);
  }

  /** Many blobs' bytes back to back, in the order asked (the client knows each one's size). */
  async function manyBlobs(workspaceId: string, shas: string[]) {
    const places: Array<{ key: string; range: { start: number; end: number } }> = [];
    let length = 0;
    for (const sha of shas) {
      const place = await blobs.locate(workspaceId, sha);
      const size = place && (place.size ?? (await store.blobs.stat(place.key))?.size);
      if (!place || size === undefined) throw notFound(`Blob ${sha}`);
      places.push({ key: place.key, range: place.range ?? { start: 0, end: size - 1 } });
      length += size;
    }
    async function* concatenated() {
      for (const { key, range } of places) {
        if (range.end < range.start) continue; // an empty blob
        const stream = await store.blobs.get(key, range);
        if (!stream) throw new Error(`${key} went away while being sent`);
        yield* stream;
      }
    }
    return reply.stream('application/octet-stream', Readable.from(concatenated()), {
      'Content-Length': String(length),
    });
  }

  return {
    info,
    plan: createPlanner({ kinds, heads, blobs }),
    push: pusher.push,
    changes: feed.changes,
    beginPack: packs.begin,
    packStatus: packs.status,
    putPackPart,
    completePack: packs.complete,
    blob,
    manyBlobs,
    /** Staged blobs no record took in a week, receipts older than 30 days. */
    async sweep() {
      return {
        'sync blobs never used': await blobs.sweep(7 * 24 * 3600_000),
        'sync receipts': await pusher.sweep(30 * 24 * 3600_000),
      };
    },
  };
}

export type HostedSync = ReturnType<typeof createHostedSync>;
