// Two real Folio instances for sync tests: a desktop one (file backend, always) and a hosted one (the backend the
// test run uses: files, or PostgreSQL + S3 with FOLIO_TEST_BACKEND=hosted), both on ephemeral ports, the desktop's
// workspace set up to sync with a key of the hosted one.
import type { ConfigInput } from '../../server/config.js';
import { syncSettings } from '../../server/domains/sync/collections.js';
import type { ServiceName } from '../../server/http/viewer.js';
import { SERVICE_NAMES } from '../../server/http/viewer.js';
import { startTestServer, type TestServer } from './server.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
export type Json = Record<string, any>;

export type SyncPair = Awaited<ReturnType<typeof startSyncPair>>;

/**
 * Config that keeps a test server on the file backend whatever FOLIO_TEST_BACKEND says: the desktop side of sync
 * is always a desktop. It overrides the database and S3 that tests/helpers/server.ts adds for
 * FOLIO_TEST_BACKEND=hosted.
 */
export const ON_FILES: Partial<ConfigInput> = { database: undefined, s3: undefined };

export async function startSyncPair(
  options: { services?: ServiceName[]; desktop?: Partial<ConfigInput>; hosted?: Partial<ConfigInput> } = {},
) {
  const hosted = await startTestServer(options.hosted);
  // The desktop always keeps files, whatever backend the hosted test servers run on.
  const desktop = await startTestServer({ ...ON_FILES, ...options.desktop });
  const hostedKey = await hosted.createKeyDetails({ services: options.services ?? [...SERVICE_NAMES] });
  const desktopKey = await desktop.createKeyDetails({ services: [...SERVICE_NAMES] });
  const workspaceId = desktopKey.workspaceId;
  const connect = await desktop.as(desktop.owner)('/api/v1/sync/settings', {
    method: 'PUT',
    body: JSON.stringify({ remoteUrl: hosted.url, key: hostedKey.bearer, enabled: false }),
  });
  if (connect.status !== 200) throw new Error(`sync settings: ${connect.status} ${await connect.text()}`);
  return {
    hosted,
    desktop,
    hostedKey,
    desktopKey,
    workspaceId,
    /** One sync run of the desktop workspace, in-process; resolves to its summary. */
    sync: (full = false) => desktop.deps.sync.desktop.run(workspaceId, { full }),
    async close() {
      await desktop.close();
      await hosted.close();
    },
  };
}

/** Every asset of a workspace through the API, by id. */
export async function listAll(
  srv: TestServer,
  bearer: string,
  path: '/api/v1/assets' | '/api/v1/transcripts',
) {
  const all: Json[] = [];
  let cursor: string | undefined;
  do {
    const res = await srv.as({ bearer })(`${path}?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await res.json()) as { data: Json[]; nextCursor: string | null };
    all.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return new Map(all.map((a) => [a.id as string, a]));
}

export async function upload(
  srv: TestServer,
  bearer: string,
  bytes: Buffer | string,
  name: string,
  tags?: string[],
) {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  if (tags) form.append('tags', tags.join(','));
  const res = await srv.as({ bearer })('/api/v1/uploads', { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return (await res.json()) as Json;
}

/** Every synced record of a workspace as `<kind>:<id>` → the hash of its synced fields (what sync compares). */
export async function syncedRecords(srv: TestServer, workspaceId: string): Promise<Map<string, string>> {
  const { store, sync } = srv.deps;
  const out = new Map<string, string>();
  for (const adapter of sync.kinds.list)
    for (const row of await store.collection(adapter.collection, workspaceId).all())
      if (adapter.ready(row))
        out.set(`${adapter.kind}:${row.id}`, sync.kinds.hash(adapter.kind, adapter.payload(row)));
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** Opts a workspace into background sync towards `remoteUrl` (an address nothing answers, by default), every 5 min. */
export async function optIntoSync(srv: TestServer, workspaceId: string, remoteUrl = 'http://127.0.0.1:9') {
  await srv.deps.store.collection(syncSettings, workspaceId).insert({
    id: 'sync',
    enabled: true,
    remoteUrl,
    keyPrefix: 'fk_x',
    intervalMinutes: 5,
    localSince: 0,
    remoteSince: 0,
    updatedAt: '',
  });
}
