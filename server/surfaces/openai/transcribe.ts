/**
 * POST /v1/audio/transcriptions and /translations: OpenAI's form fields on top of the transcripts service; waits
 * for the result.
 */
import { rm } from 'node:fs/promises';
import type { ModelManager } from '../../domains/models/service.js';
import type { Settled } from '../../domains/transcripts/job.js';
import { presentTranscript } from '../../domains/transcripts/present-transcript.js';
import type { TranscriptService, UploadSpace } from '../../domains/transcripts/service.js';
import type { ReceivedFile } from '../../domains/uploads/service.js';
import { statusOf } from '../../http/as-http-error.js';
import { HttpError } from '../../http/errors.js';
import { reply } from '../../http/reply.js';
import { formatOpenAi, type OpenAiRequest, parseOpenAiFields } from './format.js';

/** Reads the upload into the space given, reporting every form field as it arrives. */
export type ReceiveForm = (
  space: UploadSpace & { onField: (name: string, value: string) => void },
) => Promise<ReceivedFile>;

export async function transcribeOpenAi(
  { transcripts, models }: { transcripts: TranscriptService; models: ModelManager },
  workspaceId: string,
  receive: ReceiveForm,
  task: 'transcribe' | 'translate' = 'transcribe',
) {
  const fields: Array<[string, string]> = []; // in order, repeats kept (`timestamp_granularities[]`)
  const received = await transcripts.receive((space) =>
    receive({ ...space, onField: (name, value) => void fields.push([name, value]) }),
  );
  let request: OpenAiRequest;
  let modelPath: string | undefined;
  try {
    request = parseOpenAiFields(fields, task);
    modelPath = request.model ? await models.installedPath(request.model) : undefined;
  } catch (error) {
    await rm(received.tmpPath, { force: true });
    throw error;
  }
  const { language, prompt, options } = request;
  const settled = await transcripts.transcribeFile(workspaceId, received, {
    source: 'openai',
    language,
    prompt,
    modelPath,
    options,
  });
  return { settled, request };
}

/** The transcript in the format asked for; a failed one is an OpenAI-style `{ error }` with its status. */
export function openAiReply({ transcript, cause }: Settled, request: OpenAiRequest) {
  if (transcript.status !== 'completed') {
    const status = cause === undefined ? 422 : statusOf(cause);
    throw new HttpError(status, transcript.error ?? 'transcription failed', { transcriptId: transcript.id });
  }
  const out = formatOpenAi(presentTranscript(transcript), request);
  return reply.bytes(out.contentType, out.body, { 'X-Folio-Transcript-Id': transcript.id });
}
