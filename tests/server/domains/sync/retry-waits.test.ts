// A run waiting to retry (a hosted Folio answering 503 with a long Retry-After) ends at once when it is stopped or
// the app closes, and retries are jittered so desktops that failed together do not come back together.
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../../server/domains/sync/collections.js';
import { retryDelayMs, withJitter } from '../../../../server/domains/sync/desktop/retry-delay.js';
import { backoffMs, createScheduler } from '../../../../server/domains/sync/desktop/scheduler.js';
import { SERVICE_NAMES } from '../../../../server/http/viewer.js';
import { silentLogger } from '../../../../server/log.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { standInProxy } from '../../../helpers/stand-in-proxy.js';
import { ON_FILES, optIntoSync } from '../../../helpers/sync-pair.js';

const open: TestServer[] = [];
const fakes: Server[] = [];
afterEach(async () => {
  for (const srv of open.splice(0)) await srv.close();
  for (const fake of fakes.splice(0)) fake.close();
});

/** The hosted server behind a switch: passed through, or 503 with `Retry-After: 60` once `down` is set. */
async function gateway(target: string) {
  const state = { down: false, refused: 0 };
  const { url, server } = await standInProxy(target, (_req, res) => {
    if (!state.down) return false;
    state.refused++;
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' });
    res.end(JSON.stringify({ error: 'Restarting' }));
    return true;
  });
  fakes.push(server);
  return { url, state };
}

/** A desktop set up to sync through the gateway, and a run started while the hosted side answers 503. */
async function runWaitingOnRetry() {
  const [desktop, hosted] = [await startTestServer(ON_FILES), await startTestServer()];
  open.push(desktop, hosted);
  const hostedKey = await hosted.createKey({ services: [...SERVICE_NAMES] });
  const { workspaceId } = await desktop.createKeyDetails({ services: [...SERVICE_NAMES] });
  const gate = await gateway(hosted.url);
  const api = desktop.as(desktop.owner);
  const put = await api('/api/v1/sync/settings', {
    method: 'PUT',
    body: JSON.stringify({ remoteUrl: gate.url, key: hostedKey, enabled: false }),
  });
  expect(put.status).toBe(200);
  gate.state.down = true;
  const done = desktop.deps.sync.desktop.run(workspaceId);
  while (gate.state.refused === 0) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50)); // well into the 60 s wait
  return { desktop, api, done };
}

/** Resolves to the run's summary, or rejects when it has not settled within `ms`. */
function settlesWithin(done: Promise<RunSummary>, ms: number): Promise<RunSummary> {
  return Promise.race([
    done,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms),
    ),
  ]);
}

describe('a run waiting to retry', () => {
  it('ends within a fraction of a second when the owner stops syncing, and says it was stopped', async () => {
    const { api, done } = await runWaitingOnRetry();
    const started = Date.now();
    const cleared = api('/api/v1/sync/settings', { method: 'DELETE' });
    const summary = await settlesWithin(done, 1_000);
    expect(Date.now() - started).toBeLessThan(500);
    expect(summary).toMatchObject({ ok: false, error: 'Stopped before it finished' });
    expect((await cleared).status).toBe(200);
  });

  it('ends within a fraction of a second when the app closes, and the server closes with it', async () => {
    const { desktop, done } = await runWaitingOnRetry();
    open.splice(open.indexOf(desktop), 1); // closed here
    const started = Date.now();
    await settlesWithin(
      desktop.close().then(() => done),
      1_000,
    );
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('retry waits are jittered', () => {
  it('keeps a Retry-After as the floor and spreads up to a quarter above it', () => {
    expect(retryDelayMs(60_000, 0, 120_000, () => 0)).toBe(60_000);
    expect(retryDelayMs(60_000, 0, 120_000, () => 0.999)).toBeLessThan(75_000);
    expect(retryDelayMs(600_000, 0, 120_000, () => 0)).toBe(120_000); // cut to the longest wait
  });

  it('draws each backoff between half and all of it, differently for two desktops', () => {
    const draws = () => Array.from({ length: 6 }, (_, attempt) => retryDelayMs(undefined, attempt, 120_000));
    const [a, b] = [draws(), draws()];
    a.forEach((wait, attempt) => {
      expect(wait).toBeGreaterThanOrEqual(250 * 2 ** attempt);
      expect(wait).toBeLessThan(500 * 2 ** attempt);
    });
    expect(a).not.toEqual(b);
    expect(withJitter(1000, () => 0)).toBe(500);
  });

  it('spreads the schedule’s backoff after failed runs, so two desktops offline together come back apart', async () => {
    const srv = await startTestServer();
    open.push(srv);
    const { workspaceId } = await srv.createKeyDetails({ services: [] });
    await optIntoSync(srv, workspaceId);
    const waitsOfOneDesktop = async () => {
      let now = 1_000_000;
      const scheduler = createScheduler({
        store: srv.deps.store,
        now: () => now,
        log: silentLogger,
        run: async () => failedRun(now),
      });
      const waits: number[] = [];
      for (let i = 0; i < 5; i++) {
        await scheduler.tick();
        const next = scheduler.stateOf(workspaceId).nextRunAt;
        waits.push(next - now);
        now = next;
      }
      return waits;
    };
    const [a, b] = [await waitsOfOneDesktop(), await waitsOfOneDesktop()];
    a.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(backoffMs(i + 1) / 2);
      expect(wait).toBeLessThanOrEqual(backoffMs(i + 1));
    });
    expect(a).not.toEqual(b);
  });
});

function failedRun(now: number): RunSummary {
  const at = new Date(now).toISOString();
  return {
    startedAt: at,
    finishedAt: at,
    ok: false,
    error: 'unreachable',
    offline: true,
    counts: {},
    errors: [],
    skipped: [],
  };
}
