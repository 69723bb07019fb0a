// Pull: the hosted workspace's change feed from `remoteSince`. A change this side already has (its own push, or one
// applied before) is passed over; one whose record was not edited here since the last agreement is written; one
// that meets a local edit is a conflict: the server's version wins (it has the later sequence) and the local one is
// kept as a copy. A change that fails holds the cursor just before it, so the next run tries it again.
import { DELETED, idFitsKind, type SyncChange } from '../protocol/schema.js';
import { RemoteError } from './hosted-client.js';
import type { RunContext } from './run-context.js';

const PAGE = 500;

export async function pullPhase(ctx: RunContext): Promise<void> {
  const { remote, book, progress, kinds } = ctx;
  progress.enter('pull');
  const saved = (await book.settings()).remoteSince;
  let since = saved;
  let hold = Number.POSITIVE_INFINITY;
  let reset = false;
  for (;;) {
    const page = await remote.changes(since, PAGE).catch(async (error) => {
      // The feed is behind our cursor (a restored backup, a recreated workspace): agree again from the start.
      if (!(error instanceof RemoteError && error.status === 409) || reset) throw error;
      reset = true;
      await book.forgetAll();
      await book.saveSettings({ localSince: 0, remoteSince: 0 });
      return undefined;
    });
    if (!page) {
      since = 0;
      continue;
    }
    progress.add('pull', page.changes.length);
    const wanted = page.changes.flatMap((c) =>
      c.record && ctx.allowed.has(c.kind) ? kinds.of(c.kind).blobs(c.record) : [],
    );
    const failedBlobs = await ctx.downloader.ensure(wanted);
    // A page holds each record once, so its changes can be written side by side, in the kinds' order.
    await kinds.inOrder(
      page.changes,
      (change) => change,
      async (change) => {
        const failure = await pullOne(ctx, change, failedBlobs);
        if (failure) {
          hold = Math.min(hold, change.seq - 1);
          await book.failed(change.kind, change.id, failure);
          progress.error({ kind: change.kind, id: change.id, phase: 'pull', error: failure });
        }
        progress.step('pull');
      },
    );
    since = page.next;
    const position = Math.min(since, hold);
    if (position !== saved) await book.saveSettings({ remoteSince: position });
    if (!page.more) return;
  }
}

/** Applies one change; resolves to an error message when it could not. */
async function pullOne(
  ctx: RunContext,
  change: SyncChange,
  failedBlobs: Map<string, string>,
): Promise<string | undefined> {
  const { book, applier, progress } = ctx;
  if (!ctx.allowed.has(change.kind)) return undefined;
  if (!idFitsKind(change)) return `The hosted side sent a ${change.kind} with an id of the wrong form`;
  const state = await book.state(change.kind, change.id);
  if (state && !state.error && state.remoteSeq >= change.seq) return undefined;
  const local = await applier.local(change.kind, change.id);
  const version = { ...change, sha256: change.deleted ? DELETED : change.sha256 };
  if (local.hash === version.sha256) {
    const localSeq = local.row?.seq ?? (await local.collection.tombstone(change.id)) ?? 0;
    await book.agree(change.kind, change.id, {
      remoteSeq: change.seq,
      remoteHash: version.sha256,
      localSeq,
      localHash: local.hash,
    });
    return undefined;
  }
  // Local content equal to the version a killed run was writing here is that write, not an edit.
  const written = state?.pulling === local.hash;
  const edited = !written && (state ? local.hash !== state.localHash : local.row !== undefined);
  if (edited && state?.pending && state.pending.sha256 === version.sha256) {
    // The server holds this side's own push, whose answer a killed run never recorded: agree on it, so the edit
    // made since goes over it (as send-push.ts settlePending does when the push comes first).
    await book.agree(change.kind, change.id, {
      remoteSeq: change.seq,
      remoteHash: version.sha256,
      localSeq: state.pending.rev,
      localHash: state.pending.sha256,
    });
    return undefined;
  }
  // The server's content is what was agreed; only its seq moved. An edit here is no conflict: the push sends it.
  if (edited && state && state.remoteHash === version.sha256) {
    await book.moved(change.kind, change.id, change.seq);
    return undefined;
  }
  try {
    if (edited) {
      await ctx.conflicts.keep(applier, change.kind, change.id, local.row, version);
      progress.count('conflicts');
    } else {
      await book.intendPull(change.kind, change.id, local.hash, version.sha256);
      if (await applier.apply(change.kind, change.id, version, local.row))
        progress.count(change.deleted ? 'deletedHere' : 'pulled');
    }
    return undefined;
  } catch (error) {
    const blob = change.record && ctx.kinds.of(change.kind).blobs(change.record)[0];
    return (blob && failedBlobs.get(blob.sha256)) ?? (error as Error).message;
  }
}
