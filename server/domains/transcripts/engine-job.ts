/** What a queued transcript's job does: its audio asset, as a local file, through the Whisper engine it names. */
import { basename } from 'node:path';
import type { ActiveEngine } from '../../engines/whisper/active-engine.js';
import { deviceLabel } from '../../engines/whisper/device.js';
import type { EngineResult } from '../../engines/whisper/types.js';
import type { AssetService } from '../assets/service.js';
import type { JobContext, JobResult } from './job.js';
import { engineOptions } from './options.js';

export function engineJob({ active, assets }: { active: ActiveEngine; assets: AssetService }) {
  return async function transcribeOnEngine({
    workspaceId,
    transcript,
    signal,
    progress,
  }: JobContext): Promise<JobResult> {
    return active.use(transcript.modelPath, async (engine) => {
      const audio = await assets.localFile(workspaceId, transcript.audioAssetId);
      try {
        const result = await engine.transcribeFile(audio.path, {
          language: transcript.requestedLanguage,
          prompt: transcript.prompt,
          ...engineOptions(transcript.options),
          signal,
          onProgress: progress,
        });
        const loaded = engine.device();
        return {
          ...fromEngineResult(result),
          model: basename(engine.modelPath),
          device: loaded ? deviceLabel(loaded.device) : null,
        };
      } finally {
        await audio.release();
      }
    });
  };
}

/** Engine result → stored fields: segments without their words, words flattened in order. */
export function fromEngineResult(result: EngineResult): JobResult {
  return {
    language: result.language,
    duration: result.duration,
    text: result.text,
    segments: result.segments.map(({ id, start, end, text, speaker }) =>
      speaker ? { id, start, end, text, speaker } : { id, start, end, text },
    ),
    words: result.segments.flatMap((s) =>
      s.words.map(({ word, start, end, probability }) => ({ word, start, end, probability })),
    ),
    ...(result.vad ? { vad: result.vad } : {}),
  };
}
