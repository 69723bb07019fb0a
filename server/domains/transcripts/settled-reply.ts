/** How a waited-for transcript is answered (POST /transcribe, the transcripts_create tool). */
import { reply } from '../../http/reply.js';
import type { Settled } from './job.js';
import { presentTranscript } from './present-transcript.js';

/** A completed transcript is 200; a failed one keeps its `error` and gets the status of what failed it. */
export function settledReply({ transcript, cause }: Settled) {
  const body = presentTranscript(transcript);
  if (transcript.status === 'completed') return body;
  const status = (cause as { status?: number } | undefined)?.status;
  return reply.bytes(
    'application/json; charset=utf-8',
    JSON.stringify(body),
    {},
    status && status >= 400 ? status : 422,
  );
}
