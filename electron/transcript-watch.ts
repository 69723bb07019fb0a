// Watches the owner's transcripts over the same HTTP API as the dashboard (its own session) and raises a
// desktop notification when a long one finishes while the window is in the background (notify.ts decides).
import {
  finishedTranscriptions,
  type NotifyOptions,
  type TranscriptNotice,
  type WatchedTranscript,
} from './notify.js';

export function watchTranscripts({
  url,
  signInUrl,
  options,
  notify,
  everyMs = 5000,
}: {
  url: string;
  signInUrl: () => Promise<string>;
  options: () => NotifyOptions;
  notify: (notice: TranscriptNotice) => void;
  everyMs?: number;
}): () => void {
  let cookie: string | undefined;
  let statuses = new Map<string, string>();
  const get = async (path: string, workspace?: string) => {
    const response = await fetch(`${url}${path}`, {
      headers: { cookie: cookie ?? '', ...(workspace && { 'x-folio-workspace': workspace }) },
    });
    if (response.status === 401) cookie = undefined;
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  };
  const tick = async () => {
    if (!cookie) {
      const response = await fetch(await signInUrl(), { redirect: 'manual' });
      cookie = response.headers
        .getSetCookie()
        .find((c) => c.startsWith('folio_session='))
        ?.split(';')[0];
    }
    const workspaces = (await get('/api/v1/workspaces')).data as { id: string }[];
    const now: WatchedTranscript[] = [];
    for (const w of workspaces)
      now.push(...((await get('/api/v1/transcripts?limit=50', w.id)).data as WatchedTranscript[]));
    for (const notice of finishedTranscriptions(statuses, now, options())) notify(notice);
    statuses = new Map(now.map((t) => [t.id, t.status]));
  };
  const timer = setInterval(() => void tick().catch(() => undefined), everyMs);
  return () => clearInterval(timer);
}
