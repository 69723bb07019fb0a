/** The JSON shapes of realtime sessions. */
import { z } from 'zod';

/** PCM s16le mono at 16 kHz: what the session takes and Whisper wants. */
export const SAMPLE_RATE = 16_000;

export const MintRealtimeBody = z
  .strictObject({
    expiresIn: z
      .number()
      .int()
      .min(10, 'expiresIn is at least 10 seconds')
      .max(600, 'expiresIn is at most 600 seconds')
      .default(60)
      .describe('Seconds the client secret stays valid for connecting (default 60, max 600)'),
  })
  .default({ expiresIn: 60 });

export const RealtimeSession = z.object({
  id: z.string(),
  clientSecret: z.object({
    value: z.string().describe('frt_ + 32 base62 chars; single use'),
    expiresAt: z.string(),
  }),
  websocketUrl: z.string().describe('Connect to this URL with ?client_secret=<clientSecret.value> appended'),
  expiresAt: z.string(),
  audio: z.object({ format: z.literal('pcm16'), sampleRate: z.literal(SAMPLE_RATE), channels: z.literal(1) }),
});
