/** What the transcription queue hands a job, what the job gives back, and what a waiter receives. */
import type { TranscriptRecord } from './schema.js';

export type JobResult = Partial<
  Pick<TranscriptRecord, 'language' | 'duration' | 'text' | 'segments' | 'words' | 'model' | 'device' | 'vad'>
>;

export interface JobContext {
  workspaceId: string;
  transcript: TranscriptRecord;
  signal: AbortSignal;
  /** Records progress (0..100); writes are throttled. */
  progress(percent: number): void;
}

export interface Settled {
  transcript: TranscriptRecord;
  /** The error that failed it, for callers that map it to an HTTP status. */
  cause?: unknown;
}

/** One job's key in the queue's maps: transcript ids are unique only within a workspace. */
export const jobKey = (workspaceId: string, id: string) => `${workspaceId}/${id}`;
