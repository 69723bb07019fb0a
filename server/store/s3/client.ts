// An S3 client that works with S3-compatible servers as well as AWS: path-style addressing and a custom endpoint
// when given, checksums only where the API requires them (newer SDKs otherwise send stream bodies `aws-chunked`
// with a trailing CRC32, which OpenStack Swift, Ceph and older MinIO answer with 501), and DeleteObjects signed
// with Content-MD5 (the one checksum every implementation of that call accepts).
import { createHash } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';

export type S3Settings = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Keys live under this prefix in the bucket (several instances may share one bucket). */
  prefix?: string;
};

export function createS3Client(settings: S3Settings): S3Client {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // In the build step after the SDK's own checksum middleware (priority low), before signing.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers: Record<string, string>; body?: unknown };
      const body = request.body;
      if (
        context.commandName === 'DeleteObjectsCommand' &&
        (typeof body === 'string' || body instanceof Uint8Array)
      ) {
        for (const name of Object.keys(request.headers))
          if (name.startsWith('x-amz-checksum-') || name === 'x-amz-sdk-checksum-algorithm')
            delete request.headers[name];
        request.headers['content-md5'] = createHash('md5').update(body).digest('base64');
      }
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'folioContentMd5' },
  );
  return client;
}
