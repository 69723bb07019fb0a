// transcripts_create: store the audio, queue its transcript and (by default) wait for it, reporting the
// transcript's progress as MCP progress notifications; cancelling the call cancels the transcript.
import { z } from 'zod';
import { storedOptions, TranscriptionOptionFields } from '../../../domains/transcripts/options.js';
import { presentTranscript } from '../../../domains/transcripts/present-transcript.js';
import { Transcript } from '../../../domains/transcripts/schema.js';
import {
  exactlyOneSource,
  FileSource,
  receiveSource,
  SOURCE_MESSAGE,
} from '../../../domains/uploads/service.js';
import { defineTool, type ToolDeps } from './define-tool.js';
import type { ToolCall } from './tool.js';

const PROGRESS_POLL_MS = 250;

export const transcriptsCreate = defineTool({
  name: 'transcripts_create',
  service: 'transcription',
  method: 'POST',
  summary: 'Transcribe an audio or video file with the local Whisper model and wait for the transcript',
  description:
    'Either `path` (absolute, inside a folder the owner allowed for agents; any length) or `contentBase64` with `filename`. Optional `language` (e.g. en) and `prompt`; `task: "translate"` for English text from any language (multilingual models only); `vad: false` to transcribe silence too (voice activity detection is on by default) and the VAD and guard thresholds (`vadThreshold`, `noSpeechThreshold`, ...). Progress is reported while it runs (ask for it with a progressToken); cancelling the call cancels the transcript. `wait: false` answers the pending transcript at once (follow it with transcripts_get). A failed transcript is a tool error carrying the transcript and its `error`.',
  input: z
    .strictObject({
      ...FileSource,
      language: z.string().trim().min(1).max(16).optional(),
      prompt: z.string().trim().min(1).max(2000).optional(),
      ...TranscriptionOptionFields,
      wait: z.boolean().default(true),
    })
    .refine(exactlyOneSource, SOURCE_MESSAGE),
  response: Transcript,
  async run({ workspace, args }, deps, call) {
    const { config, transcripts } = deps;
    const file = await transcripts.receive((space) =>
      receiveSource(args, { ...space, roots: config.agentFileRoots, signal: call.signal }),
    );
    const record = await transcripts.queueFile(
      workspace.id,
      { tmpPath: file.tmpPath, filename: args.filename ?? file.filename },
      { source: 'transcribe', language: args.language, prompt: args.prompt, options: storedOptions(args) },
    );
    if (!args.wait) return presentTranscript(record);
    return transcripts.settledReply(await waitFor(workspace.id, record.id, deps, call));
  },
});

/** Waits for the transcript, relaying its progress; an aborted call cancels it. */
async function waitFor(workspaceId: string, id: string, { transcripts }: ToolDeps, call: ToolCall) {
  const cancel = () => void transcripts.cancel(workspaceId, id).catch(() => undefined);
  call.signal.addEventListener('abort', cancel, { once: true });
  let reported = -1;
  const poll = setInterval(async () => {
    const row = await transcripts.find(workspaceId, id).catch(() => undefined);
    if (row?.status !== 'processing' || row.progress <= reported) return;
    reported = row.progress;
    call.progress(row.progress, 100, `transcribing: ${row.progress}%`);
  }, PROGRESS_POLL_MS);
  try {
    const settled = await transcripts.settled(workspaceId, id);
    if (settled.transcript.status === 'completed') call.progress(100, 100, 'completed');
    return settled;
  } finally {
    clearInterval(poll);
    call.signal.removeEventListener('abort', cancel);
  }
}
