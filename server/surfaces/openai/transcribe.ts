/** POST /v1/audio/transcriptions: OpenAI's form fields on top of the transcripts service; waits for the result. */
import { rm } from 'node:fs/promises';
import type { ModelManager } from '../../domains/models/service.js';
import type { TranscriptService } from '../../domains/transcripts/service.js';
import type { ReceivedFile } from '../../http/receive-multipart.js';
import { type OpenAiRequest, parseOpenAiFields } from './format.js';

export async function transcribeOpenAi(
  { transcripts, models }: { transcripts: TranscriptService; models: ModelManager },
  workspaceId: string,
  received: ReceivedFile,
  /** Every form field in order, repeats kept (`timestamp_granularities[]`). */
  fields: Array<[string, string]>,
) {
  let request: OpenAiRequest;
  let modelPath: string | undefined;
  try {
    request = parseOpenAiFields(fields);
    modelPath = request.model ? await models.installedPath(request.model) : undefined;
  } catch (error) {
    await rm(received.tmpPath, { force: true });
    throw error;
  }
  const { language, prompt } = request;
  const settled = await transcripts.transcribeFile(workspaceId, received, {
    source: 'openai',
    language,
    prompt,
    modelPath,
  });
  return { settled, request };
}
