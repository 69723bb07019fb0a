// Push: what changed locally since the last run (the local change feed from `localSince`), plus records whose last
// attempt failed, planned with the server, blobs sent, records pushed over the version each was based on. A
// conflict keeps the local version as a copy and takes the server's. The cursor moves only once a page is settled.
import pMap from 'p-map';
import type { Change, Row } from '../../../store/types.js';
import type { KindAdapter, Payload } from '../kinds/types.js';
import { sha256Hex } from '../protocol/content-hash.js';
import {
  DELETED,
  MAX_PLAN_RECORDS,
  MAX_PUSH_RECORDS,
  type PushItem,
  type PushResult,
  type SyncKind,
} from '../protocol/schema.js';
import type { RunContext } from './run-context.js';
import type { PendingBlob } from './send-packs.js';
import { createWire } from './wire.js';

/** One page of the local feed is planned in one request. */
const PAGE = MAX_PLAN_RECORDS;
/** Records above this many bytes of JSON travel as a blob in a pack instead of inline. */
const INLINE_BYTES = 256 << 10;
const PUSH_BYTES = 768 << 10;
/** Push requests of one kind in flight at once (their records land in the same units on the server). */
const PUSHES_IN_FLIGHT = 2;

type Candidate = {
  adapter: KindAdapter;
  id: string;
  rev: number;
  baseSeq: number;
  sha256: string;
  payload: Payload | null;
  row: Row | undefined;
  /** The server version last agreed on, when this local version is the one that matched it (a full re-plan). */
  agreed?: { seq: number; hash: string };
  /** A push of this record an earlier run sent without hearing back. */
  pending?: { rev: number; sha256: string };
  recordBlob?: PendingBlob;
};

export async function pushPhase(ctx: RunContext): Promise<void> {
  const { store, workspaceId, kinds, book, progress } = ctx;
  progress.enter('plan');
  const saved = (await book.settings()).localSince;
  let since = ctx.full ? 0 : saved;
  const retries = await book.withErrors();
  const collections = kinds.list.map((k) => k.collection.name);
  for (;;) {
    const page = await store.changes(workspaceId, { since, limit: PAGE, collections });
    const { changes, waitAt } = await kinds.syncable(workspaceId, page.changes);
    const found = new Map<string, Candidate>();
    for (const change of [...changes, ...(await retried(ctx, retries.splice(0)))]) {
      const adapter = kinds.ofCollection(change.collection)!;
      const key = `${adapter.kind}:${change.id}`;
      if (found.has(key)) continue;
      const candidate = await candidateOf(ctx, adapter, change.id, change.seq, change.row ?? undefined);
      if (candidate) found.set(key, candidate);
    }
    await pushCandidates(ctx, [...found.values()]);
    // A change that must wait (a publish still under way) holds the position before it, as the hosted feed does.
    since = waitAt === undefined ? page.next : waitAt - 1;
    if (since > saved) await book.saveSettings({ localSince: since }); // a full re-plan re-reads, then moves on
    if (!page.more || waitAt !== undefined) return;
  }
}

/** Records whose last push failed, as changes of the local feed, less those that may not sync. */
async function retried(ctx: RunContext, retries: Awaited<ReturnType<RunContext['book']['withErrors']>>) {
  const changes: Change[] = [];
  for (const retry of retries) {
    const adapter = ctx.kinds.of(retry.kind);
    const collection = ctx.store.collection(adapter.collection, ctx.workspaceId);
    const row = (await collection.get(retry.recordId)) ?? null;
    const seq = row?.seq ?? (await collection.tombstone(retry.recordId)) ?? 0;
    changes.push({ collection: adapter.collection.name, id: retry.recordId, seq, row });
  }
  return (await ctx.kinds.syncable(ctx.workspaceId, changes)).changes;
}

/** A record to push, or undefined when the server already has this version or it cannot sync (yet). */
async function candidateOf(
  ctx: RunContext,
  adapter: KindAdapter,
  id: string,
  seq: number,
  row: Row | undefined,
): Promise<Candidate | undefined> {
  if (!ctx.allowed.has(adapter.kind)) return undefined;
  if (row && !adapter.ready(row)) {
    ctx.progress.count('waiting');
    return undefined;
  }
  const payload = row ? adapter.payload(row) : null;
  const sha256 = ctx.kinds.hash(adapter.kind, payload);
  const state = await ctx.book.state(adapter.kind, id);
  // Unchanged here since the last agreement: nothing to push (a failed pull of it is the pull's to try again).
  const unchanged = state !== undefined && state.localHash === sha256;
  if (unchanged && !ctx.full) return undefined;
  if (state?.pulling === sha256) return undefined; // a server version a killed pull wrote: the pull agrees on it
  const pending = state?.pending ?? undefined;
  if (!row && (!state || (state.remoteSeq === 0 && !pending))) return undefined; // made and deleted here, never synced
  const agreed = unchanged ? { seq: state.remoteSeq, hash: state.remoteHash } : undefined;
  const rev = row?.seq ?? seq;
  return { adapter, id, rev, baseSeq: state?.remoteSeq ?? 0, sha256, payload, row, agreed, pending };
}

async function pushCandidates(ctx: RunContext, candidates: Candidate[]): Promise<void> {
  const position = (c: Candidate) => c.adapter.order?.(c.id).position ?? 0;
  candidates.sort(
    (a, b) => ctx.kinds.order(a.adapter.kind) - ctx.kinds.order(b.adapter.kind) || position(a) - position(b),
  );
  for (let i = 0; i < candidates.length; i += MAX_PLAN_RECORDS)
    await pushChunk(ctx, candidates.slice(i, i + MAX_PLAN_RECORDS));
}

async function pushChunk(ctx: RunContext, chunk: Candidate[]): Promise<void> {
  const { remote, progress, book } = ctx;
  progress.enter('plan');
  await settlePending(ctx, chunk);
  const blobs: PendingBlob[] = [];
  for (const c of chunk) {
    if (!c.payload) continue;
    for (const blob of c.adapter.blobs(c.payload))
      blobs.push({ ...blob, source: { blobKey: c.adapter.blobKey!(ctx.workspaceId, c.row!) } });
    const json = Buffer.from(JSON.stringify(c.payload));
    if (json.length > INLINE_BYTES) {
      c.recordBlob = {
        sha256: sha256Hex(json),
        size: json.length,
        source: { kind: c.adapter.kind, recordId: c.id },
      };
      blobs.push(c.recordBlob);
    }
  }
  progress.add('plan', chunk.length);
  const plan = await remote.plan({
    records: chunk.map(refOf),
    blobs: blobs.map(({ sha256, size }) => ({ sha256, size })),
  });
  progress.step('plan', chunk.length);
  const planned = new Map(plan.records.map((r) => [`${r.kind}:${r.id}`, r]));
  const toPush: Candidate[] = [];
  const agreements: Array<() => Promise<void>> = [];
  for (const c of chunk) {
    const answer = planned.get(`${c.adapter.kind}:${c.id}`);
    if (c.agreed && answer?.action !== 'unchanged') {
      // A full re-plan of a record unchanged here: the server still holds what it made of it (it inspects bytes
      // itself, so its hash may differ from ours), or it moved on, which the pull brings. Never pushed.
      if (answer?.seq === c.agreed.seq && answer.sha256 === c.agreed.hash) progress.count('unchanged');
    } else if (!answer || answer.action === 'push' || answer.action === 'conflict') toPush.push(c);
    else if (answer.action === 'skip') progress.count('skipped');
    else {
      agreements.push(() =>
        book.agree(c.adapter.kind, c.id, agreement(c, answer.seq, answer.sha256 ?? c.sha256)),
      );
      progress.count('unchanged');
    }
  }
  await pMap(agreements, (agree) => agree(), { concurrency: 16 });
  progress.enter('upload');
  progress.add('push', toPush.length);
  const blobsBySha = new Map(blobs.map((b) => [b.sha256, b]));
  await pushPipelined(ctx, [...batches(toPush)], blobsBySha, new Set(plan.missingBlobs));
}

/**
 * Only the bytes of records the server will take are sent: a record that conflicts is not written, so its bytes would
 * waste. Each push batch's missing bytes go in packs of their own, one batch's parts after another's (two at a time
 * were no faster through a 100 Mbit/s link), and a batch is pushed as soon as its packs are in: the server writes one
 * batch's records while the desktop reads and sends the next batch's bytes. A batch's first pack is begun while the
 * batch before it sends its parts, and a pack's complete goes beside the next batch's parts (wire.ts). Batches of one
 * kind whose records need no order among them (assets, transcripts) are pushed up to PUSHES_IN_FLIGHT at a time; any
 * other batch waits for those before it. A failed upload stops every later batch's parts, the first failure a push
 * hears stops new pushes, and what is under way is waited for before it is thrown, so nothing of the run goes on
 * after it ends.
 */
async function pushPipelined(
  ctx: RunContext,
  list: Candidate[][],
  blobsBySha: Map<string, PendingBlob>,
  missing: Set<string>,
): Promise<void> {
  const failedBlobs = new Map<string, string>();
  let failure: { error: unknown } | undefined;
  const uploaded: Promise<void>[] = [];
  const take = createWire();
  const places = list.map(() => take());
  for (const [k, batch] of list.entries()) {
    // A blob goes with the first batch that needs it (taken out of `missing` there).
    const blobs = batch
      .flatMap(blobsOf)
      .filter((b) => missing.delete(b.sha256))
      .map((b) => blobsBySha.get(b.sha256)!);
    // Begun once the batch before holds the wire; its parts wait for the wire itself.
    const turn = places[k - 1]?.ready ?? Promise.resolve();
    uploaded[k] = turn.then(async () => {
      if (failure) throw failure.error;
      for (const [sha256, error] of await ctx.uploader.upload(blobs, places[k]))
        failedBlobs.set(sha256, error);
    });
    // A failed batch, before its parts or after them, stops the wire; the failure itself is heard by its push.
    uploaded[k].catch((error) => places[k].release(error));
  }
  const running = new Set<Promise<void>>();
  for (const [k, batch] of list.entries()) {
    const limit = k > 0 && unordered(list[k - 1], batch) ? PUSHES_IN_FLIGHT : 1;
    while (running.size >= limit) await Promise.race(running);
    if (failure) break;
    const pushed: Promise<void> = uploaded[k]
      .then(() => pushBatch(ctx, batch, failedBlobs))
      .catch((error) => {
        failure ??= { error };
      })
      .finally(() => running.delete(pushed));
    running.add(pushed);
  }
  await Promise.all(running);
  await Promise.allSettled(uploaded);
  if (failure) throw failure.error;
}

async function pushBatch(ctx: RunContext, batch: Candidate[], failedBlobs: Map<string, string>) {
  const { book, remote, progress } = ctx;
  progress.enter('push');
  await pMap(batch, (c) => book.intend(c.adapter.kind, c.id, { rev: c.rev, sha256: c.sha256 }), {
    concurrency: 16,
  });
  const { results } = await remote.push(batch.map(itemOf));
  await pMap(results.entries(), ([i, result]) => settleOrFail(ctx, batch[i], result, failedBlobs), {
    concurrency: 16,
  });
  progress.step('push', batch.length);
}

/** Two batches whose records are all of one kind that has no order among its records (no lanes). */
function unordered(a: Candidate[], b: Candidate[]): boolean {
  const { kind } = a[0].adapter;
  return [...a, ...b].every((c) => c.adapter.kind === kind && !c.adapter.order);
}

/**
 * Pushes an earlier run sent but died before hearing back about, when the record has changed here since: the
 * server may have applied one (its receipt answers a replay of the same push key, without the record, and writes
 * nothing). If it did, that version is agreed on first, so the later edit goes over it instead of conflicting with
 * this machine's own earlier push. Deletes need no question: a repeated delete answers `unchanged`.
 */
async function settlePending(ctx: RunContext, chunk: Candidate[]): Promise<void> {
  const asked = chunk.filter(
    (c) => c.pending && c.pending.sha256 !== c.sha256 && c.pending.sha256 !== DELETED,
  );
  for (let i = 0; i < asked.length; i += MAX_PUSH_RECORDS) {
    const batch = asked.slice(i, i + MAX_PUSH_RECORDS);
    const { results } = await ctx.remote.push(
      batch.map((c) => ({
        kind: c.adapter.kind as SyncKind,
        id: c.id,
        rev: c.pending!.rev,
        baseSeq: c.baseSeq,
        sha256: c.pending!.sha256,
      })),
    );
    await pMap(
      results.entries(),
      async ([j, result]) => {
        const c = batch[j];
        if (result.outcome !== 'applied' || !result.replayed || result.seq === undefined) return;
        await ctx.book.agree(c.adapter.kind, c.id, {
          remoteSeq: result.seq,
          remoteHash: result.sha256 ?? c.pending!.sha256,
          localSeq: c.pending!.rev,
          localHash: c.pending!.sha256,
        });
        c.baseSeq = result.seq;
      },
      { concurrency: 16 },
    );
  }
}

/** Settles one result; anything that goes wrong stays with that record (tried again next run), not the run. */
async function settleOrFail(
  ctx: RunContext,
  c: Candidate,
  result: PushResult,
  failedBlobs: Map<string, string>,
) {
  try {
    await settle(ctx, c, result, failedBlobs);
  } catch (error) {
    const message = (error as Error).message;
    await ctx.book.failed(c.adapter.kind, c.id, message);
    ctx.progress.error({ kind: c.adapter.kind, id: c.id, phase: 'push', error: message });
  }
}

async function settle(ctx: RunContext, c: Candidate, result: PushResult, failedBlobs: Map<string, string>) {
  const kind = c.adapter.kind;
  if (result.outcome === 'applied' || result.outcome === 'unchanged') {
    await ctx.book.agree(kind, c.id, agreement(c, result.seq ?? 0, result.sha256 ?? c.sha256));
    ctx.progress.count(result.outcome === 'applied' ? 'pushed' : 'unchanged');
  } else if (result.outcome === 'conflict' && result.server) {
    const current = await ctx.store.collection(c.adapter.collection, ctx.workspaceId).get(c.id);
    const winner = { ...result.server, sha256: result.server.sha256 ?? '' };
    if (winner.record) await ctx.downloader.ensure(c.adapter.blobs(winner.record));
    await ctx.conflicts.keep(ctx.applier, kind, c.id, current, winner);
    ctx.progress.count('conflicts');
  } else if (result.outcome === 'skipped') ctx.progress.count('skipped');
  else {
    const blobProblem =
      c.payload &&
      c.adapter
        .blobs(c.payload)
        .map((b) => failedBlobs.get(b.sha256))
        .find(Boolean);
    const error = blobProblem ?? result.error ?? `failed with ${result.status}`;
    await ctx.book.failed(kind, c.id, error);
    ctx.progress.error({ kind, id: c.id, phase: 'push', error });
  }
}

const blobsOf = (c: Candidate) => [
  ...(c.payload ? c.adapter.blobs(c.payload) : []),
  ...(c.recordBlob ? [c.recordBlob] : []),
];

const agreement = (c: Candidate, remoteSeq: number, remoteHash: string) => ({
  remoteSeq,
  remoteHash,
  localSeq: c.rev,
  localHash: c.sha256,
});

const refOf = (c: Candidate) => ({
  kind: c.adapter.kind as SyncKind,
  id: c.id,
  rev: c.rev,
  baseSeq: c.baseSeq,
  sha256: c.sha256,
});

const itemOf = (c: Candidate): PushItem => ({
  ...refOf(c),
  ...(c.recordBlob ? { recordBlob: c.recordBlob.sha256 } : c.payload ? { record: c.payload } : {}),
});

/** Push requests of at most MAX_PUSH_RECORDS records and about PUSH_BYTES of JSON. */
function* batches(candidates: Candidate[]): Generator<Candidate[]> {
  let batch: Candidate[] = [];
  let bytes = 0;
  for (const c of candidates) {
    const size = c.recordBlob || !c.payload ? 200 : JSON.stringify(c.payload).length;
    if (batch.length && (batch.length >= MAX_PUSH_RECORDS || bytes + size > PUSH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(c);
    bytes += size;
  }
  if (batch.length) yield batch;
}
