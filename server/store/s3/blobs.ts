// Blobs in an S3-compatible bucket. Streams go up as multipart uploads (lib-storage: parts in parallel, the
// upload aborted if the source fails, so a broken upload leaves nothing behind); reads are ranged GETs; a tool
// that needs a local path gets a temporary copy. Loaded only when FOLIO_S3_BUCKET is set.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertBlobKey } from '../blob-key.js';
import { pipeIntoFile } from '../file/pipe-into-file.js';
import { Sha256Stream } from '../sha256-stream.js';
import type { BlobInfo, BlobStore, ByteRange } from '../types.js';
import { createS3Client, type S3Settings } from './client.js';

export type S3BlobOptions = S3Settings & {
  tmpDir: string;
  /** Multipart part size (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Parts uploaded at once per stream. */
  queueSize?: number;
  /** Creates the bucket when it does not exist (tests, a first start); an operator may create it beforehand. */
  createBucket?: boolean;
};

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

export async function openS3Blobs(options: S3BlobOptions): Promise<BlobStore & { client: S3Client }> {
  const client = createS3Client(options);
  const Bucket = options.bucket;
  const base = options.prefix ? `${assertBlobKey(options.prefix.replace(/\/+$/, ''))}/` : '';
  const objectKey = (key: string) => base + assertBlobKey(key);
  await ensureBucket(client, Bucket, options.createBucket ?? true);
  await abortStaleUploads(client, Bucket, base).catch(() => {}); // housekeeping only: never a reason not to start

  async function upload(key: string, body: Readable): Promise<void> {
    const params = { Bucket, Key: objectKey(key), Body: body };
    await new Upload({
      client,
      params,
      partSize: options.partSize ?? 8 << 20,
      queueSize: options.queueSize ?? 4,
    }).done();
  }

  async function* listKeys(prefix: string): AsyncIterable<BlobInfo> {
    const pages = paginateListObjectsV2({ client }, { Bucket, Prefix: prefix });
    for await (const page of pages)
      for (const object of page.Contents ?? [])
        if (object.Key?.startsWith(base))
          yield {
            key: object.Key.slice(base.length),
            size: object.Size ?? 0,
            modifiedAt: object.LastModified ?? new Date(0),
          };
  }

  async function get(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    try {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range }));
      return object.Body as Readable;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      // A range starting past the end reads nothing, as a file read there does.
      if (statusOf(error) === 416) return Readable.from([]);
      throw error;
    }
  }

  const blobs: BlobStore & { client: S3Client } = {
    client,
    pathOf: () => undefined,
    async put(key, source) {
      objectKey(key);
      const count = new Sha256Stream();
      const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
      // A failing source destroys `count`, which fails (and aborts) the multipart upload reading from it.
      const piped = pipeline(input, count);
      try {
        await upload(key, count);
      } catch (error) {
        count.destroy(error as Error);
        await piped.catch(() => {});
        throw error;
      }
      await piped;
      return { size: count.bytes, sha256: count.digest() };
    },
    async putFile(key, path) {
      objectKey(key);
      const { size } = await stat(path);
      await upload(key, createReadStream(path));
      await rm(path, { force: true });
      return { size };
    },
    get,
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async deletePrefix(prefix) {
      const root = objectKey(prefix.replace(/\/+$/, ''));
      let batch: string[] = [root];
      const flush = async () => {
        const Objects = batch.map((Key) => ({ Key }));
        batch = [];
        const result = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }),
        );
        const failed = result.Errors?.filter((e) => e.Code !== 'NoSuchKey') ?? [];
        if (failed.length)
          throw new Error(
            `S3 could not delete ${failed.length} objects under ${prefix}: ${failed[0]?.Message}`,
          );
      };
      for await (const info of listKeys(`${root}/`)) {
        batch.push(objectKey(info.key));
        if (batch.length === 1000) await flush();
      }
      if (batch.length) await flush();
    },
    list(prefix) {
      return listKeys(`${objectKey(prefix.replace(/\/+$/, ''))}/`);
    },
    async *keys(prefix) {
      const batch: string[] = [];
      for await (const { key } of listKeys(`${objectKey(prefix.replace(/\/+$/, ''))}/`)) {
        batch.push(key);
        if (batch.length === 1000) yield batch.splice(0);
      }
      if (batch.length) yield batch;
    },
    async localFile(key) {
      const body = await get(key);
      if (!body) return undefined;
      const path = join(options.tmpDir, `blob-${randomUUID()}`);
      try {
        await pipeIntoFile(path, (out) => pipeline(body, out));
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
      return { path, release: () => rm(path, { force: true }) };
    },
  };
  return blobs;
}

const STALE_UPLOAD_MS = 24 * 3600_000;

/**
 * Multipart uploads a node started and never finished (it died mid-stream) hold parts the bucket bills for but no
 * listing shows; one a day old is abandoned whichever node started it. (A bucket lifecycle rule with
 * AbortIncompleteMultipartUpload does the same where the server supports it.)
 */
export async function abortStaleUploads(
  client: S3Client,
  Bucket: string,
  Prefix: string,
  olderThanMs = STALE_UPLOAD_MS,
): Promise<void> {
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  do {
    const page = await client.send(
      new ListMultipartUploadsCommand({ Bucket, Prefix, KeyMarker, UploadIdMarker }),
    );
    for (const upload of page.Uploads ?? [])
      if (upload.Initiated && Date.now() - upload.Initiated.getTime() >= olderThanMs)
        await client.send(
          new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
    KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
  } while (KeyMarker);
}

async function ensureBucket(client: S3Client, Bucket: string, create: boolean): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (error) {
    if (statusOf(error) !== 404 || !create)
      throw new Error(`S3 bucket "${Bucket}" is not usable: ${(error as Error).name}`);
    await client.send(new CreateBucketCommand({ Bucket })).catch((again) => {
      if ((again as Error).name !== 'BucketAlreadyOwnedByYou') throw again;
    });
  }
}
