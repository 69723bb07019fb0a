// What one upload may cost (issue #38, docs/security.md): reading a recording's facts is bounded. A 2.5 MB Matroska
// file declaring 20,000 audio tracks cost music-metadata about a minute of the serving process's CPU; now it is
// stored without a duration after a few seconds at most, through a key and through a public upload grant alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyTrackMatroska } from '../../../helpers/hostile-media.js';
import { filePart, multipart, postRaw, wav } from './fixtures.js';
import { type AssetsServer, startAssetsServer } from './harness.js';

let s: AssetsServer;
let hostile: Buffer;
beforeAll(async () => {
  s = await startAssetsServer({ limits: { uploadBytes: 16 << 20 } });
  hostile = manyTrackMatroska(20_000);
});
afterAll(() => s?.close());

/** The upload's answer, with the wall time and this process's CPU (the server's, its threads included) it took. */
async function measured(upload: () => ReturnType<AssetsServer['upload']>) {
  const cpu = process.cpuUsage();
  const started = Date.now();
  const res = await upload();
  const used = process.cpuUsage(cpu);
  return { res, wallMs: Date.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

describe('the cost of reading an upload’s media facts', () => {
  it('a file declaring 20,000 tracks through a key is stored without a duration, in bounded CPU', async () => {
    const { res, wallMs, cpuMs } = await measured(() =>
      s.upload([filePart(hostile, 'tracks.mkv', 'video/x-matroska')]),
    );
    expect(res.status).toBe(201);
    expect(res.json.duration ?? null).toBeNull();
    expect(wallMs).toBeLessThan(8_000);
    expect(cpuMs).toBeLessThan(8_000);
    expect((await s.api('/api/v1/assets')).status).toBe(200);
  }, 120_000);

  it('the same file through a public upload grant with no type limit costs the same bound', async () => {
    const minted = await s.api('/api/v1/uploads/grant', { method: 'POST', body: '{}' });
    const { grant } = (await minted.json()) as { grant: string };
    const { body, contentType } = multipart([filePart(hostile, 'tracks.mkv', 'video/x-matroska')]);
    const { res, wallMs, cpuMs } = await measured(() =>
      postRaw(
        `${s.url}/api/v1/uploads/client`,
        { authorization: `Bearer ${grant}`, 'content-type': contentType },
        body,
      ),
    );
    expect(res.status).toBe(201);
    expect(res.json.duration ?? null).toBeNull();
    expect(wallMs).toBeLessThan(8_000);
    expect(cpuMs).toBeLessThan(8_000);
  }, 120_000);

  it('an ordinary recording still gets its duration, from a file and from bytes held in memory', async () => {
    for (const seconds of [2, 30]) {
      const res = await s.upload([filePart(wav(seconds), `tone-${seconds}.wav`, 'audio/wav')]);
      expect(res.status).toBe(201);
      expect(res.json.duration).toBeCloseTo(seconds, 1);
    }
  });
});
