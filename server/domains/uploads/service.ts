/**
 * Uploads, the one way in for a file that becomes an asset, and the entry every other domain and surface calls.
 * How a file arrives names where its code lives: a multipart POST (direct/), under a client-upload grant (grant/),
 * in parts (chunked/, its own service, built once transcripts exist), an agent's inline bytes or allowed local path
 * (from-agent/), or a file another domain already holds (`createFromFile` below: a watched folder, an import, sync,
 * a realtime session, a completed chunked upload). Making the asset itself (checks, bytes and record in one unit) is
 * the assets domain's `create`.
 */
import { rm } from 'node:fs/promises';
import type { Store } from '../../store/types.js';
import type { AssetRecord } from '../assets/schema.js';
import type { AssetService, IncomingFile, NewAssetMeta } from '../assets/service.js';
import { incoming, metaFromFields } from './direct/form-fields.js';
import type { ReceivedFile } from './direct/receive-multipart.js';
import { createUploadGrants } from './grant/grants.js';

export { type ReceivedFile, receiveMultipart, sanitizeFilename } from './direct/receive-multipart.js';
export {
  exactlyOneSource,
  FileSource,
  ownedBy,
  receiveSource,
  SOURCE_MESSAGE,
} from './from-agent/agent-file.js';

/** Receives a multipart upload; `beforeFile` may refuse it or lower its byte limit before a byte is written. */
export type Receive = (
  beforeFile?: (fields: Record<string, string>) => Promise<{ maxBytes?: number } | undefined>,
) => Promise<ReceivedFile>;

export interface UploadServiceDeps {
  store: Store;
  assets: Pick<AssetService, 'create'>;
  /** The largest file a direct upload may send. */
  maxBytes: number;
}

export function createUploadService({ store, assets, maxBytes }: UploadServiceDeps) {
  const grants = createUploadGrants(store);
  const { create } = assets;

  /** POST /api/v1/uploads: the received file, with optional `displayName` and `tags` fields. */
  async function upload(workspaceId: string, received: ReceivedFile): Promise<AssetRecord> {
    let meta: NewAssetMeta;
    try {
      meta = metaFromFields(received.fields);
    } catch (error) {
      await rm(received.tmpPath, { force: true });
      throw error;
    }
    return create(workspaceId, incoming(received), meta);
  }

  /** POST /api/v1/uploads/client: the grant comes as a bearer token, or as a form field before the file. */
  async function uploadWithGrant(bearer: string | undefined, receive: Receive): Promise<AssetRecord> {
    // Claimed before a byte is read: the race between uses is decided here.
    let claim = bearer ? await grants.claim(bearer) : undefined;
    try {
      const received = await receive(async (fields) => {
        claim ??= await grants.claim(fields.grant);
        return { maxBytes: claim.grant.maxBytes };
      });
      const { grant, consume } = claim!;
      return await create(
        grant.workspaceId,
        incoming(received),
        { displayName: grant.displayName, tags: grant.tags },
        {
          rules: { maxBytes: grant.maxBytes, allowedTypes: grant.allowedTypes },
          along: (tx, record) => consume(record.id, tx),
        },
      );
    } catch (error) {
      await claim?.release(); // no asset was made: the holder may retry while the grant is valid
      throw error;
    }
  }

  /**
   * For other domains (chunked uploads, realtime, sync): takes ownership of a file already on local disk, or takes a
   * small one's `bytes` held in memory.
   */
  async function createFromFile(
    workspaceId: string,
    input: ({ path: string; bytes?: undefined } | { bytes: Buffer; path?: undefined }) & {
      /** A fixed id, so a retried step finds the asset it made before (chunked complete). */
      id?: string;
      filename: string;
      contentType?: string;
      displayName?: string;
      tags?: string[];
      sha256?: string;
      /** Kept from another instance (sync), so the copy lists where the original does. */
      createdAt?: string;
      updatedAt?: string;
      /** Commit with other creates waiting at the time (create-asset.ts `CreateOptions`). */
      together?: boolean;
    },
  ): Promise<AssetRecord> {
    const about = { filename: input.filename, contentTypeHint: input.contentType, sha256: input.sha256 };
    const file: IncomingFile =
      input.bytes !== undefined ? { bytes: input.bytes, ...about } : { path: input.path, ...about };
    const { id, displayName, tags, createdAt, updatedAt, together } = input;
    return create(workspaceId, file, { id, displayName, tags, createdAt, updatedAt }, { together });
  }

  return {
    upload,
    uploadWithGrant,
    createFromFile,
    /** Runs `into` with where a received file may be written and how large it may be; the file is the caller's. */
    receive: <T>(into: (space: { tmpDir: string; maxBytes: number }) => Promise<T>) =>
      into({ tmpDir: store.tmpDir, maxBytes }),
    grants,
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
