// Where jobs run among the nodes of a hosted instance (issue #38): two queues on one store stand for two nodes. A
// node that cannot transcribe (no worker, no model) leaves jobs to the one that can; with no such node, it takes a
// job once it has waited, so the job fails with the reason rather than waiting for ever. The `run` here stands in
// for the engine: what is tested is which node takes what.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transcriptsCollection } from '../../../../server/domains/transcripts/collections.js';
import type { JobContext } from '../../../../server/domains/transcripts/job.js';
import { createTranscriptQueue } from '../../../../server/domains/transcripts/queue.js';
import type { TranscriptRecord } from '../../../../server/domains/transcripts/schema.js';
import type { Store } from '../../../../server/store/types.js';
import { openTestStore } from '../../../helpers/hosted/backend.js';

let dataDir: string;
let opened: Awaited<ReturnType<typeof openTestStore>>;
let store: Store;
const queues: Array<ReturnType<typeof createTranscriptQueue>> = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-placement-'));
  opened = await openTestStore(dataDir);
  store = opened.store;
});
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
  await opened.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A node: its queue, polling like a hosted one, and the jobs it ran. */
function node(name: string, canRun: boolean, unclaimedMs = 60_000) {
  const ran: string[] = [];
  const queue = createTranscriptQueue({
    store,
    node: name,
    pollMs: 50,
    leaseMs: 5_000,
    unclaimedMs,
    canRun: async () => canRun,
    run: async (job: JobContext) => {
      ran.push(job.transcript.id);
      if (!canRun) throw new Error('No Whisper model is installed');
      await new Promise((r) => setTimeout(r, 30));
      return { text: 'done', language: 'en', duration: 1, segments: [], words: [] };
    },
  });
  queues.push(queue);
  queue.start();
  return { ran };
}

async function queueJobs(count: number): Promise<string[]> {
  const at = new Date().toISOString();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const record: TranscriptRecord = {
      id: `trn_placement${i}`,
      status: 'pending',
      progress: 0,
      audioAssetId: `ast_placement${i}`,
      source: 'chunked',
      model: 'micro.bin',
      createdAt: at,
      updatedAt: at,
    };
    await store.collection(transcriptsCollection, 'ws_placement').insert(record);
    ids.push(record.id);
  }
  return ids;
}

async function settled(ids: string[], timeoutMs = 20_000): Promise<TranscriptRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await Promise.all(
      ids.map((id) => store.collection(transcriptsCollection, 'ws_placement').get(id)),
    );
    if (rows.every((r) => r && (r.status === 'completed' || r.status === 'failed')))
      return rows as TranscriptRecord[];
    if (Date.now() > deadline) throw new Error(`not settled: ${rows.map((r) => r?.status).join(', ')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('which node runs a transcription job', () => {
  it('a node without an engine leaves every job to the node that has one', async () => {
    const without = node('no-engine', false);
    const withEngine = node('engine', true);
    const ids = await queueJobs(6);
    const rows = await settled(ids);
    expect(rows.map((r) => r.status)).toEqual(Array(6).fill('completed'));
    expect(without.ran).toEqual([]);
    expect(withEngine.ran.sort()).toEqual([...ids].sort());
  });

  it('with no node able to run it, a job fails with the reason once it has waited, not never', async () => {
    const without = node('no-engine', false, 300);
    const [id] = await queueJobs(1);
    const [row] = await settled([id]);
    expect(row.status).toBe('failed');
    expect(row.error).toBe('No Whisper model is installed');
    expect(without.ran).toEqual([id]);
  });
});
