// The SQLite-style I/O fault loop: fail write step k (k = 1 … every step a workload takes) with ENOSPC or EIO, once
// or from then on. Every refused request must be a clear 5xx JSON error (507 for a full disk), the server must go on
// serving, and after the disk recovers and the server restarts, what it loads is exactly what it acknowledged.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fault, FaultInjector } from '../../../server/store/file/faults.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

type Model = { keys: Map<string, string>; assets: Map<string, { name: string; sha256: string }> };
type Plan = { k: number; fault: Fault; persistent: boolean };

/** Counts write steps once armed; fails step k (and, persistent, every later one) while `enabled`. */
function faultPlan(plan: Plan | undefined) {
  const state = { armed: false, enabled: true, steps: 0 };
  const injector: FaultInjector = () => {
    if (!state.armed) return undefined;
    state.steps++;
    if (!plan || !state.enabled) return undefined;
    const hit = state.steps === plan.k || (plan.persistent && state.steps > plan.k);
    return hit ? plan.fault : undefined;
  };
  return { state, injector };
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function upload(srv: TestServer, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return srv.as(srv.owner)('/api/v1/uploads', { method: 'POST', body: form });
}

/** A workload that touches the journal, blobs and deletes; acknowledged results go into the model. */
async function workload(srv: TestServer, model: Model, refusals: { status: number; error: string }[]) {
  const api = srv.as(srv.owner);
  const record = async (res: Response, apply: (body: Record<string, string>) => void) => {
    const text = await res.text();
    if (res.status < 300) return apply(text ? JSON.parse(text) : {});
    refusals.push({ status: res.status, error: (JSON.parse(text) as { error: string }).error });
  };
  const createKey = (name: string) =>
    api('/api/v1/api-keys', { method: 'POST', body: JSON.stringify({ name, services: ['assets'] }) });
  await record(await createKey('alpha'), (b) => model.keys.set(b.id, 'alpha'));
  const first = Buffer.from('first file '.repeat(50));
  await record(await upload(srv, first, 'one.txt'), (b) =>
    model.assets.set(b.id, { name: 'one.txt', sha256: sha(first) }),
  );
  for (const [id] of model.assets)
    await record(
      await api(`/api/v1/assets/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ displayName: 'renamed' }),
      }),
      () => model.assets.set(id, { ...model.assets.get(id)!, name: 'renamed' }),
    );
  await record(await createKey('beta'), (b) => model.keys.set(b.id, 'beta'));
  for (const [id, name] of model.keys)
    if (name === 'alpha')
      await record(await api(`/api/v1/api-keys/${id}`, { method: 'DELETE' }), () => model.keys.delete(id));
  const second = Buffer.from('second file '.repeat(400));
  await record(await upload(srv, second, 'two.txt'), (b) =>
    model.assets.set(b.id, { name: 'two.txt', sha256: sha(second) }),
  );
  for (const [id, asset] of model.assets)
    if (asset.name === 'renamed')
      await record(await api(`/api/v1/assets/${id}`, { method: 'DELETE' }), () => model.assets.delete(id));
}

async function loaded(srv: TestServer) {
  const api = srv.as(srv.owner);
  const keys = (await (await api('/api/v1/api-keys')).json()) as { data: { id: string; name: string }[] };
  const assets = (await (await api('/api/v1/assets?limit=200')).json()) as {
    data: { id: string; displayName: string; sha256: string; urls: { file: string } }[];
  };
  for (const a of assets.data)
    expect(sha(Buffer.from(await (await fetch(a.urls.file)).arrayBuffer()))).toBe(a.sha256);
  return {
    keys: new Map(keys.data.map((k) => [k.id, k.name])),
    assets: new Map(assets.data.map((a) => [a.id, { name: a.displayName, sha256: a.sha256 }])),
  };
}

async function filesOnDisk(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const ws of await readdir(join(dataDir, 'workspaces')).catch(() => []))
    found.push(...(await readdir(join(dataDir, 'workspaces', ws, 'files')).catch(() => [])));
  return found.sort();
}

async function runRound(plan: Plan | undefined) {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-faults-'));
  const faults = faultPlan(plan);
  const srv = await startTestServer({ dataDir }, { faults: faults.injector });
  const model: Model = { keys: new Map(), assets: new Map() };
  const refusals: { status: number; error: string }[] = [];
  try {
    faults.state.armed = true;
    await workload(srv, model, refusals);
    faults.state.enabled = false; // space is back
    expect((await srv.as(srv.owner)('/health')).status).toBe(200);
    const after = await srv.as(srv.owner)('/api/v1/api-keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'after', services: [] }),
    });
    expect(after.status).toBe(201);
    model.keys.set(((await after.json()) as { id: string }).id, 'after');
    expect(await loaded(srv)).toEqual(model);
  } finally {
    await srv.close();
  }
  const again = await startTestServer({ dataDir });
  try {
    expect(await loaded(again)).toEqual(model);
    expect(await filesOnDisk(dataDir)).toEqual([...model.assets.keys()].sort());
    for (const log of await journals(dataDir))
      for (const line of log.trim().split('\n').filter(Boolean)) JSON.parse(line);
  } finally {
    await again.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { refusals, steps: faults.state.steps };
}

async function journals(dataDir: string): Promise<string[]> {
  const logs: string[] = [];
  const dirs = [join(dataDir, 'instance')];
  for (const ws of await readdir(join(dataDir, 'workspaces')).catch(() => []))
    dirs.push(join(dataDir, 'workspaces', ws, 'db'));
  for (const dir of dirs)
    for (const name of await readdir(dir).catch(() => []))
      if (name.endsWith('.log')) logs.push(await readFile(join(dir, name), 'utf8'));
  return logs;
}

describe('I/O fault loop', () => {
  it('fails every write step in turn (ENOSPC, short writes, EIO; once and persistent): clear 5xx, nothing acknowledged lost, recovery', async () => {
    const { steps, refusals } = await runRound(undefined);
    expect(refusals).toEqual([]);
    expect(steps).toBeGreaterThan(10);
    const plans: Plan[] = [];
    for (let k = 1; k <= steps; k++) {
      plans.push({ k, fault: { code: 'ENOSPC', afterBytes: 7 }, persistent: false });
      plans.push({ k, fault: { code: 'ENOSPC' }, persistent: true });
      if (k % 3 === 0) plans.push({ k, fault: { code: 'EIO' }, persistent: false });
    }
    let refused = 0;
    for (const plan of plans) {
      const round = await runRound(plan).catch((error) => {
        throw new Error(
          `step ${plan.k} ${plan.fault.code}${plan.persistent ? ' persistent' : ''}: ${error.message}`,
        );
      });
      for (const r of round.refusals) {
        expect(r.status, r.error).toBe(plan.fault.code === 'EIO' ? 503 : 507);
        expect(r.error).toMatch(plan.fault.code === 'EIO' ? /Storage failed/ : /disk is full/);
      }
      refused += round.refusals.length;
    }
    expect(refused).toBeGreaterThan(plans.length / 2);
  }, 600_000);
});

describe('compaction on a failing disk', () => {
  it('logs a failed compaction and retries it later; the server never dies over it and loses nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-compact-'));
    let failSnapshots = true;
    const faults: FaultInjector = (step) =>
      failSnapshots && step.op === 'snapshot-write' ? { code: 'ENOSPC' } : undefined;
    const srv = await startTestServer({ dataDir }, { faults, compactAtBytes: 2_000, compactionRetryMs: 50 });
    const names: string[] = [];
    try {
      const create = async (name: string) => {
        const res = await srv.as(srv.owner)('/api/v1/api-keys', {
          method: 'POST',
          body: JSON.stringify({ name, services: ['assets'] }),
        });
        expect(res.status).toBe(201);
        names.push(name);
      };
      for (let i = 0; i < 30; i++) await create(`key ${i}`);
      expect(srv.logs.some((l) => /Compacting .*api-keys\.json failed .*will retry/.test(l))).toBe(true);
      failSnapshots = false;
      await new Promise((r) => setTimeout(r, 60));
      for (let i = 30; i < 40; i++) await create(`key ${i}`);
      const snapshot = JSON.parse(await readFile(join(dataDir, 'instance', 'api-keys.json'), 'utf8')) as {
        rows: unknown[];
      };
      expect(snapshot.rows.length).toBeGreaterThanOrEqual(30);
    } finally {
      await srv.close();
    }
    const again = await startTestServer({ dataDir });
    try {
      const keys = (await (await again.as(again.owner)('/api/v1/api-keys')).json()) as {
        data: { name: string }[];
      };
      expect(keys.data.map((k) => k.name).sort()).toEqual([...names].sort());
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
