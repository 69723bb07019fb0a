/** Which finished transcriptions deserve a desktop notification: long ones, finished while the user looked away. */
export type WatchedTranscript = { id: string; status: string; duration?: number; error?: string };

export type NotifyOptions = { enabled: boolean; minSeconds: number; windowFocused: boolean };

export type TranscriptNotice = { id: string; title: string; body: string };

/**
 * Compares the statuses seen last time with now: a transcript that was pending or processing and is now
 * completed or failed is announced once, if it is long enough and the window is not in front.
 */
export function finishedTranscriptions(
  before: ReadonlyMap<string, string>,
  now: WatchedTranscript[],
  { enabled, minSeconds, windowFocused }: NotifyOptions,
): TranscriptNotice[] {
  if (!enabled || windowFocused) return [];
  return now.flatMap((t) => {
    const was = before.get(t.id);
    const finished =
      (was === 'pending' || was === 'processing') && (t.status === 'completed' || t.status === 'failed');
    if (!finished || (t.duration ?? 0) < minSeconds) return [];
    const minutes = Math.max(1, Math.round((t.duration ?? 0) / 60));
    return t.status === 'completed'
      ? [{ id: t.id, title: 'Transcript ready', body: `A ${minutes}-minute recording has been transcribed.` }]
      : [{ id: t.id, title: 'Transcription failed', body: t.error ?? 'Open Folio to see why.' }];
  });
}
