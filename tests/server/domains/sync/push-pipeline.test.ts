// A first sync of many small assets is pipelined: the hosted side writes one push batch's records while the desktop
// still sends the next batch's bytes, and two push requests of assets are in flight at once. A failure part way
// stops the run with nothing of it still going on, and the next run sends the rest.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listAll, type SyncPair, startSyncPair, upload } from '../../../helpers/sync-pair.js';

const ASSETS = 420; // three push batches of at most 200 records
const PUSH = 'POST /api/v1/sync/push';
const COMPLETE = 'POST /api/v1/sync/packs/:id/complete';
const BEGIN_PACK = 'POST /api/v1/sync/packs';
const PART = 'PUT /api/v1/sync/packs/:id/parts/0';
let pair: SyncPair | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await pair?.close();
  pair = undefined;
});

type Call = { what: string; begun: number; ended?: number };
const count = (calls: Call[], what: string) => calls.filter((c) => c.what === what).length;
type Watch = {
  /** Throws instead of sending this request. */
  fail?: (what: string, calls: Call[]) => boolean;
  /** Holds this request back until the promise it returns settles. */
  hold?: (call: Call, calls: Call[]) => Promise<void> | undefined;
};

/** Records each sync request the desktop sends (through the real fetch) as it begins and ends. */
function watchSyncRequests({ fail, hold }: Watch = {}) {
  const calls: Call[] = [];
  let clock = 0;
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (!url.pathname.startsWith('/api/v1/sync/')) return realFetch(input, init);
    const what = `${init?.method ?? 'GET'} ${url.pathname.replace(/\/packs\/[^/]+/, '/packs/:id')}`;
    if (fail?.(what, calls)) throw new TypeError('fetch failed (cut off by the test)');
    const call: Call = { what, begun: clock++ };
    calls.push(call);
    try {
      await hold?.(call, calls);
      return await realFetch(input, init);
    } finally {
      call.ended = clock++;
    }
  });
  return calls;
}

/** Resolves once `check()` holds, or after `ms` (so a run that never gets there fails its assertions, not a timeout). */
function until(check: () => boolean, ms = 3000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve) => {
    const tick = () => (check() || Date.now() - started > ms ? resolve() : setTimeout(tick, 5));
    tick();
  });
}

async function desktopWithAssets() {
  pair = await startSyncPair();
  for (let i = 0; i < ASSETS; i++)
    await upload(pair.desktop, pair.desktopKey.bearer, randomBytes(200 + (i % 50)), `a-${i}.bin`);
  return pair;
}

describe('pipelined push of many small assets', () => {
  it('pushes the first batch before the last batch’s bytes are in, two pushes at a time, and everything lands', async () => {
    const { hosted, hostedKey, sync } = await desktopWithAssets();
    // The first push answers only once a second is under way, and the last pack completes only once a push began:
    // a run that pushes only after all its bytes are in, or one push at a time, waits these out and is caught.
    const calls = watchSyncRequests({
      hold: (call, sent) => {
        if (call.what === PUSH && count(sent, PUSH) === 1) return until(() => count(sent, PUSH) >= 2);
        if (call.what === COMPLETE && count(sent, COMPLETE) === 3) return until(() => count(sent, PUSH) >= 1);
      },
    });
    const summary = await sync();
    expect(summary).toMatchObject({ ok: true, counts: { pushed: ASSETS, blobsUploaded: ASSETS } });
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).size).toBe(ASSETS);

    const pushes = calls.filter((c) => c.what === PUSH);
    const completes = calls.filter((c) => c.what === COMPLETE);
    expect(pushes).toHaveLength(3);
    expect(completes).toHaveLength(3);
    expect(pushes[0].begun).toBeLessThan(completes[2].ended!);
    const overlapping = pushes.some((a, i) =>
      pushes.slice(i + 1).some((b) => b.begun < a.ended! && a.begun < b.ended!),
    );
    expect(overlapping).toBe(true);
  });

  it('begins a pack and completes one beside a neighbour’s parts, and sends one pack’s parts at a time', async () => {
    const { hosted, hostedKey, sync } = await desktopWithAssets();
    // The first batch's parts answer only once the second pack is begun, and its complete only once the second
    // batch's parts are under way: a run that leaves the link idle for those round trips waits these out.
    const calls = watchSyncRequests({
      hold: (call, sent) => {
        if (call.what === PART && count(sent, PART) === 1) return until(() => count(sent, BEGIN_PACK) >= 2);
        if (call.what === COMPLETE && count(sent, COMPLETE) === 1) return until(() => count(sent, PART) >= 2);
      },
    });
    expect(await sync()).toMatchObject({ ok: true, counts: { pushed: ASSETS, blobsUploaded: ASSETS } });
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).size).toBe(ASSETS);

    const of = (what: string) => calls.filter((c) => c.what === what);
    const [parts, begins, completes] = [of(PART), of(BEGIN_PACK), of(COMPLETE)];
    expect(parts).toHaveLength(3);
    expect(begins[1].begun).toBeLessThan(parts[0].ended!);
    expect(parts[1].begun).toBeLessThan(completes[0].ended!);
    for (let i = 1; i < parts.length; i++) expect(parts[i].begun).toBeGreaterThan(parts[i - 1].ended!);
  });

  it('stops at a failure with nothing left running, and the next run sends the rest', async () => {
    const { hosted, hostedKey, sync } = await desktopWithAssets();
    // The third batch's pack cannot be begun: the host went away after two batches' bytes.
    const calls = watchSyncRequests({
      fail: (what, sent) => what === BEGIN_PACK && count(sent, BEGIN_PACK) === 2,
    });
    const failed = await sync();
    expect(failed.ok).toBe(false);
    const sent = calls.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.length).toBe(sent); // nothing of the failed run went on after it returned
    const landed = (await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).size;
    expect(landed).toBe(400);

    vi.restoreAllMocks();
    expect(await sync()).toMatchObject({ ok: true, counts: { pushed: ASSETS - landed } });
    expect((await listAll(hosted, hostedKey.bearer, '/api/v1/assets')).size).toBe(ASSETS);
  });
});
