/** How a waited-for transcript is answered (POST /transcribe, the transcripts_create tool). */
import { statusOf } from '../../http/as-http-error.js';
import { reply } from '../../http/reply.js';
import type { Settled } from './job.js';
import { presentTranscript } from './present-transcript.js';

/**
 * A completed transcript is 200; a failed one keeps its `error` and gets the status of what failed it (422 when that
 * is not known here: cancelled, or failed on another node).
 */
export function settledReply({ transcript, cause }: Settled) {
  const body = presentTranscript(transcript);
  if (transcript.status === 'completed') return body;
  const status = cause === undefined ? 422 : statusOf(cause);
  return reply.bytes('application/json; charset=utf-8', JSON.stringify(body), {}, status);
}
