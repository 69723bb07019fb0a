// `folio add <dir> --url <origin> --key <secret>`: the same through a running instance's API. The workspace's
// SHA-256s are read once from the asset list; then each new file is one POST /api/v1/uploads, a few in flight,
// and a 429 (or 503) waits the Retry-After it names and sends again, so the key's rate limit sets the pace.
import { createHash } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pMap from 'p-map';
import type { AddOptions } from './add-local.js';
import { type FolderFile, folderFiles, type Walked } from './folder-files.js';

export type RemoteOptions = Omit<AddOptions, 'workspace'> & { url: string; key: string };

/** Uploads in flight at once: a key's burst allows more, but more would only queue at the server. */
const CONCURRENCY = 4;
const PAGE = 200;

export async function addRemote(options: RemoteOptions): Promise<Walked> {
  const api = apiOf(options);
  const held = await heldShas(api);
  const walked: Walked = { links: 0, others: 0 };
  await pMap(
    folderFiles(options.dir, walked),
    async (file) => {
      try {
        const sha256 = await hashOf(file.path);
        if (held.has(sha256)) options.progress.tally.skipped++;
        else {
          held.add(sha256);
          options.progress.tally.bytes += await upload(api, file, options.tags);
          options.progress.tally.added++;
        }
      } catch (error) {
        options.progress.tally.failed++;
        options.log(`${file.relative}: ${error instanceof Error ? error.message : String(error)}`);
      }
      options.progress.tick();
    },
    { concurrency: CONCURRENCY },
  );
  return walked;
}

type Api = (path: string, init?: RequestInit) => Promise<Response>;

function apiOf({ url, key }: RemoteOptions): Api {
  const origin = url.replace(/\/+$/, '');
  return async function send(path, init = {}) {
    for (;;) {
      const res = await fetch(`${origin}${path}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${key}` },
      });
      const wait = Number(res.headers.get('retry-after'));
      if ((res.status === 429 || res.status === 503) && Number.isFinite(wait) && wait >= 0) {
        await res.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 0.05) * 1000));
        continue;
      }
      if (!res.ok) {
        const body = (await res.json().catch(() => undefined)) as { error?: string } | undefined;
        throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${body?.error ?? res.statusText}`);
      }
      return res;
    }
  };
}

/** Every SHA-256 the key's workspace holds, page by page. */
async function heldShas(api: Api): Promise<Set<string>> {
  const shas = new Set<string>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(PAGE), ...(cursor && { cursor }) });
    const page = (await (await api(`/api/v1/assets?${query}`)).json()) as {
      data: Array<{ sha256: string }>;
      nextCursor: string | null;
    };
    for (const asset of page.data) shas.add(asset.sha256);
    cursor = page.nextCursor;
  } while (cursor);
  return shas;
}

/** Sends one file (streamed from disk, which a retry opens again); resolves to its size. */
async function upload(api: Api, file: FolderFile, tags: string[]): Promise<number> {
  const blob = await openAsBlob(file.path);
  const form = new FormData();
  if (tags.length) form.append('tags', tags.join(','));
  form.append('file', blob, basename(file.path));
  await (await api('/api/v1/uploads', { method: 'POST', body: form })).body?.cancel();
  return blob.size;
}

async function hashOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
