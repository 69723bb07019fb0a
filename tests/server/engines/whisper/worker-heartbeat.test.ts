// The worker's sign of life (worker.cpp `beat`): while a job computes, it says so at least once a second, so the
// stall watchdog (worker-process.ts) ends only a job whose computation stopped. The real worker, spoken to directly.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../../server/engines/whisper/decode-audio.js';
import { defaultWorkerPath } from '../../../../server/engines/whisper/whisper-engine.js';
import { padTo } from '../../../helpers/speech.js';
import { engineBuilt, makeFixtures } from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('the whisper worker’s sign of life', () => {
  it('sends "alive" for the running job at least once a second while it computes', async () => {
    const fx = makeFixtures();
    const pcm = join(fx.dir, 'long.f32');
    await decodeAudio(padTo(fx.speech, join(fx.dir, 'long.wav'), 240), pcm, { ffmpeg: 'ffmpeg' });
    const worker = spawn(defaultWorkerPath, [
      '--model',
      fx.model,
      '--threads',
      '1',
      '--device',
      'cpu',
      '--modules',
      dirname(defaultWorkerPath),
    ]);
    try {
      const events: Array<{ event: string; id?: string; at: number }> = [];
      const done = new Promise<void>((resolve) => {
        createInterface({ input: worker.stdout }).on('line', (line) => {
          const event = JSON.parse(line);
          events.push({ ...event, at: Date.now() });
          if (event.event === 'loaded')
            worker.stdin.write(`${JSON.stringify({ cmd: 'transcribe', id: 'j1', pcm })}\n`);
          if (event.id === 'j1' && (event.event === 'done' || event.event === 'error')) resolve();
        });
      });
      await done;
      const job = events.filter((e) => e.id === 'j1');
      expect(job.at(-1)?.event).toBe('done');
      const beats = job.filter((e) => e.event === 'alive');
      const took = job.at(-1)!.at - job[0].at;
      expect(took).toBeGreaterThan(1_500); // long enough that a beat was due
      expect(beats.length).toBeGreaterThanOrEqual(Math.floor(took / 1_000) - 1);
      let last = job[0].at;
      for (const e of job) {
        expect(e.at - last).toBeLessThan(1_500); // no silence longer than a beat and a margin
        last = e.at;
      }
    } finally {
      worker.kill('SIGKILL');
      fx.cleanup();
    }
  }, 120_000);
});
