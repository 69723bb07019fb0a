import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DownloadProgress, downloadModel } from '../../../../server/domains/models/download-model.js';
import { generateModel } from '../../../helpers/generate-model.js';

describe('downloadModel', () => {
  let root: string;
  let model: Buffer;
  let server: Server;
  let baseUrl: string;
  let requests: Array<{ url: string; range?: string }>;
  let cutFirstResponseAt: number | undefined;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'folio-download-'));
    generateModel(join(root, 'ggml-micro.bin'), { preset: 'micro', seed: 5 });
    model = readFileSync(join(root, 'ggml-micro.bin'));
    server = createServer((req, res) => {
      requests.push({ url: req.url ?? '', range: req.headers.range });
      if (req.url !== '/ggml-micro.bin') return res.writeHead(404).end('not found');
      const start = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
      const body = model.subarray(start);
      res.writeHead(start ? 206 : 200, {
        'content-length': body.length,
        ...(start && { 'content-range': `bytes ${start}-${model.length - 1}/${model.length}` }),
      });
      if (cutFirstResponseAt !== undefined) {
        const cut = cutFirstResponseAt;
        cutFirstResponseAt = undefined;
        res.write(body.subarray(0, cut), () => res.destroy()); // connection drops mid-body
        return;
      }
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    requests = [];
    cutFirstResponseAt = undefined;
  });

  const sha256 = () => createHash('sha256').update(model).digest('hex');
  const dataDir = (name: string) => join(root, name);

  it('downloads, verifies and reports progress up to 100', async () => {
    const progress: DownloadProgress[] = [];
    const { path, bytes } = await downloadModel({
      dataDir: dataDir('a'),
      baseUrl,
      model: { file: 'ggml-micro.bin', bytes: model.length, sha256: sha256() },
      onProgress: (p) => progress.push(p),
    });
    expect(path).toBe(join(dataDir('a'), 'models', 'ggml-micro.bin'));
    expect(bytes).toBe(model.length);
    expect(readFileSync(path).equals(model)).toBe(true);
    expect(progress.at(-1)).toEqual({ receivedBytes: model.length, totalBytes: model.length, percent: 100 });
    expect(readdirSync(join(dataDir('a'), 'models'))).toEqual(['ggml-micro.bin']);
  });

  it('resumes with a Range request after the connection is cut', async () => {
    cutFirstResponseAt = 3_000_000;
    const { path } = await downloadModel({
      dataDir: dataDir('b'),
      baseUrl,
      model: { file: 'ggml-micro.bin', sha256: sha256() },
    });
    expect(readFileSync(path).equals(model)).toBe(true);
    expect(requests.map((r) => r.range)).toEqual([undefined, expect.stringMatching(/^bytes=\d+-$/)]);
    expect(Number(/\d+/.exec(requests[1].range!)![0])).toBeGreaterThan(0);
  });

  it('rejects a checksum mismatch and leaves nothing named as a model', async () => {
    const err = await downloadModel({
      dataDir: dataDir('c'),
      baseUrl,
      model: { file: 'ggml-micro.bin', sha256: '0'.repeat(64) },
    }).catch((e) => e);
    expect(err).toMatchObject({ name: 'ModelError', code: 'checksum_mismatch' });
    expect(readdirSync(join(dataDir('c'), 'models'))).toEqual([]);
  });

  it('verifies sha1 when that is all the catalog has', async () => {
    const sha1 = createHash('sha1').update(model).digest('hex');
    await expect(
      downloadModel({ dataDir: dataDir('d'), baseUrl, model: { file: 'ggml-micro.bin', sha1 } }),
    ).resolves.toMatchObject({ bytes: model.length });
  });

  it('reports a missing file with the status, keeping no partial model', async () => {
    const err = await downloadModel({
      dataDir: dataDir('e'),
      baseUrl,
      model: { file: 'ggml-nope.bin' },
    }).catch((e) => e);
    expect(err.message).toMatch(/404/);
    expect(existsSync(join(dataDir('e'), 'models', 'ggml-nope.bin'))).toBe(false);
  });

  it('stops when aborted and keeps the .part file for a later resume', async () => {
    const controller = new AbortController();
    cutFirstResponseAt = undefined;
    const err = await downloadModel({
      dataDir: dataDir('f'),
      baseUrl,
      model: { file: 'ggml-micro.bin', sha256: sha256() },
      signal: controller.signal,
      onProgress: (p) => p.receivedBytes > 1_000_000 && controller.abort(),
    }).catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(readdirSync(join(dataDir('f'), 'models'))).toEqual(['ggml-micro.bin.part']);
    const { path } = await downloadModel({
      dataDir: dataDir('f'),
      baseUrl,
      model: { file: 'ggml-micro.bin', sha256: sha256() },
    });
    expect(readFileSync(path).equals(model)).toBe(true);
    expect(requests.at(-1)?.range).toMatch(/^bytes=[1-9]\d*-$/);
  });

  it('refuses file names that could escape the models folder', async () => {
    await expect(
      downloadModel({ dataDir: dataDir('g'), baseUrl, model: { file: '../evil.bin' } }),
    ).rejects.toMatchObject({ code: 'bad_name' });
  });
});
