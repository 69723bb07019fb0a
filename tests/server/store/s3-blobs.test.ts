// What the S3 blob backend adds beyond the store contract, on a real S3 API (Swift's s3api): multipart uploads
// from a stream, a source that fails mid-stream leaves nothing behind, and abandoned multipart uploads are aborted.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { abortStaleUploads, openS3Blobs } from '../../../server/store/s3/blobs.js';
import { testS3Settings } from '../../helpers/hosted/services.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function open() {
  const tmpDir = await mkdtemp(join(tmpdir(), 'folio-s3-'));
  dirs.push(tmpDir);
  const settings = await testS3Settings();
  return { settings, blobs: await openS3Blobs({ ...settings, tmpDir, partSize: 5 << 20 }) };
}

const pending = async (blobs: Awaited<ReturnType<typeof open>>['blobs'], bucket: string, prefix: string) =>
  (await blobs.client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }))).Uploads ??
  [];

describe('S3 blobs', () => {
  it('streams a 12 MiB body up in parts and reads any range of it back', async () => {
    const { blobs } = await open();
    const body = randomBytes(12 << 20);
    const chunks = Array.from({ length: 12 }, (_, i) => body.subarray(i << 20, (i + 1) << 20));
    const put = await blobs.put('workspaces/w/files/big', Readable.from(chunks));
    expect(put.size).toBe(body.length);
    const range = await blobs.get('workspaces/w/files/big', { start: (5 << 20) - 3, end: (5 << 20) + 4 });
    expect(Buffer.concat(await range!.toArray())).toEqual(body.subarray((5 << 20) - 3, (5 << 20) + 5));
    expect((await blobs.stat('workspaces/w/files/big'))?.size).toBe(body.length);
  });

  it('leaves no object and no open multipart upload when the source fails mid-stream', async () => {
    const { blobs, settings } = await open();
    async function* failing() {
      yield randomBytes(6 << 20); // past the first part: a multipart upload is under way
      throw new Error('client went away');
    }
    await expect(blobs.put('workspaces/w/files/cut', Readable.from(failing()))).rejects.toThrow();
    expect(await blobs.stat('workspaces/w/files/cut')).toBeUndefined();
    expect(await pending(blobs, settings.bucket, `${settings.prefix}/`)).toEqual([]);
  });

  it('aborts multipart uploads abandoned by a node that died', async () => {
    const { blobs, settings } = await open();
    const Key = `${settings.prefix}/workspaces/w/files/orphan`;
    const { UploadId } = await blobs.client.send(
      new CreateMultipartUploadCommand({ Bucket: settings.bucket, Key }),
    );
    await blobs.client.send(
      new UploadPartCommand({
        Bucket: settings.bucket,
        Key,
        UploadId,
        PartNumber: 1,
        Body: randomBytes(1024),
      }),
    );
    expect(await pending(blobs, settings.bucket, `${settings.prefix}/`)).toHaveLength(1);
    await abortStaleUploads(blobs.client, settings.bucket, `${settings.prefix}/`, 60_000); // not a minute old
    expect(await pending(blobs, settings.bucket, `${settings.prefix}/`)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1100)); // Initiated has whole seconds
    await abortStaleUploads(blobs.client, settings.bucket, `${settings.prefix}/`, 0);
    expect(await pending(blobs, settings.bucket, `${settings.prefix}/`)).toEqual([]);
  });
});
