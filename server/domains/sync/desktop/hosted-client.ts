// The hosted Folio as the desktop's sync sees it: its /api/v1/sync routes over HTTP with the key as a bearer token.
// Rate limits are waited out (Retry-After), a gateway hiccup is retried a few times (each wait jittered, and ended at
// once by the run's signal: retry-delay.ts), and an unreachable host is an OfflineError, which the scheduler answers
// with backoff. An answer is checked against the schema its route declares (the hosted routes answer with the same
// ones) before the desktop acts on it: a URL that is not a hosted Folio or a proxy's error page is a ProtocolError
// naming the route, not a TypeError deep in a run; a body cut off is offline.
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { batchKey } from '../protocol/content-hash.js';
import {
  type BeginPackBody,
  ChangesPage,
  CompletedPack,
  Pack,
  PackStatus,
  Plan,
  type PlanBody,
  PushAnswer,
  type PushItem,
  SyncInfo,
} from '../protocol/schema.js';
import { retryDelayMs } from './retry-delay.js';

/** The remote answered with an error status; `body` is its `{ error, ... }`. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`The hosted Folio answered ${status}: ${String(body.error ?? 'no error message')}`);
    this.name = 'RemoteError';
  }
}

/** The remote answered with success, but not as a hosted Folio's sync does (not JSON, or not the route's shape). */
export class ProtocolError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`The hosted Folio's answer to ${path} is not one this version reads: ${problem}`);
    this.name = 'ProtocolError';
  }
}

/** The remote could not be reached at all (no network, DNS, refused, reset). */
export class OfflineError extends Error {
  constructor(cause: unknown) {
    super(
      `The hosted Folio cannot be reached: ${(cause as Error)?.cause ?? (cause as Error)?.message ?? cause}`,
    );
    this.name = 'OfflineError';
  }
}

export type RemoteOptions = {
  baseUrl: string;
  key: string;
  /** Longest base wait before a retry (a Retry-After longer than this is cut to it), jitter not counted. */
  maxWaitMs?: number;
  /** The run's: aborting it ends a request, or the wait before retrying one, at once. */
  signal?: AbortSignal;
};

type Init = { method?: string; json?: unknown; body?: Readable | Buffer; headers?: Record<string, string> };

export function createRemote({ baseUrl, key, maxWaitMs = 120_000, signal }: RemoteOptions) {
  const base = baseUrl.replace(/\/+$/, '');

  async function send(path: string, init: Init = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...init.headers };
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.body) body = init.body as unknown as BodyInit;
    try {
      return await fetch(`${base}${path}`, {
        method: init.method ?? (body ? 'POST' : 'GET'),
        headers,
        body,
        signal,
        redirect: 'error',
        ...(init.body && !Buffer.isBuffer(init.body) ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new OfflineError(error);
    }
  }

  /** Sends, waiting out 429s and retrying 502/503/504 (bodies that are streams cannot be re-sent: those throw). */
  async function request(path: string, init: Init = {}, expected = [200, 201, 204]): Promise<Response> {
    const resendable = !init.body || Buffer.isBuffer(init.body);
    for (let attempt = 0; ; attempt++) {
      const res = await send(path, init);
      if (expected.includes(res.status)) return res;
      const retryable = res.status === 429 || res.status === 502 || res.status === 503 || res.status === 504;
      if (retryable && resendable && attempt < 6) {
        await res.body?.cancel();
        await sleep(retryDelayMs(retryAfterMs(res), attempt, maxWaitMs), undefined, { signal });
        continue;
      }
      throw new RemoteError(res.status, await errorBody(res));
    }
  }

  /** The answer as sent once it passes `schema` (so records keep fields this version does not know). */
  async function json<T>(path: string, schema: z.ZodType<T>, init?: Init): Promise<T> {
    const res = await request(path, init);
    const text = await res.text().catch((error) => {
      if (signal?.aborted) throw error;
      throw new OfflineError(error);
    });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ProtocolError(
        path,
        `not JSON (sent as ${res.headers.get('content-type') ?? 'no content type'})`,
      );
    }
    const checked = schema.safeParse(value);
    if (!checked.success) {
      const [issue] = checked.error.issues;
      throw new ProtocolError(path, `${issue.path.join('.') || 'the body'}: ${issue.message}`);
    }
    return value as T;
  }

  return {
    baseUrl: base,
    info: () => json('/api/v1/sync/info', SyncInfo),
    plan: (body: PlanBody) => json('/api/v1/sync/plan', Plan, { json: body }),
    push: (records: PushItem[]) =>
      json('/api/v1/sync/push', PushAnswer, {
        json: { records },
        headers: { 'idempotency-key': batchKey(records) },
      }),
    changes: (since: number, limit: number) =>
      json(`/api/v1/sync/changes?since=${since}&limit=${limit}`, ChangesPage),
    beginPack: (body: BeginPackBody) => json('/api/v1/sync/packs', Pack, { json: body }),
    packStatus: (uploadId: string) => json(`/api/v1/sync/packs/${encodeURIComponent(uploadId)}`, PackStatus),
    putPart: async (uploadId: string, index: number, body: Readable | Buffer, length: number) => {
      const res = await request(`/api/v1/sync/packs/${encodeURIComponent(uploadId)}/parts/${index}`, {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(length) },
      });
      await res.body?.cancel();
    },
    completePack: (uploadId: string) =>
      json(`/api/v1/sync/packs/${encodeURIComponent(uploadId)}/complete`, CompletedPack, {
        method: 'POST',
      }),
    /** Bytes of many blobs, back to back in the order asked. */
    fetchBlobs: (shas: string[]) => request('/api/v1/sync/blobs', { json: { blobs: shas } }),
    /** One blob's bytes from `from` on (a resumed download). */
    blob: (sha256: string, from = 0) =>
      request(
        `/api/v1/sync/blobs/${sha256}`,
        from > 0 ? { headers: { range: `bytes=${from}-` } } : {},
        [200, 206],
      ),
  };
}

export type Remote = ReturnType<typeof createRemote>;

function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

async function errorBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text().catch(() => '');
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? parsed : { error: text };
  } catch {
    return { error: text.slice(0, 500) || res.statusText };
  }
}
