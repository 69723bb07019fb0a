/** A tone as a 16-bit PCM WAV, as tests, benches and the package check send one (the header: realtime/wav.ts). */
import { wavHeader } from '../../server/domains/realtime/wav.js';

/** `seconds` of a 440 Hz tone, mono: playable by Chromium, parsable by music-metadata, decodable by ffmpeg. */
export function toneWav(seconds: number, sampleRate = 16_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((i / sampleRate) * 2 * Math.PI * 440) * 8000), i * 2);
  return Buffer.concat([wavHeader(data.length, sampleRate), data]);
}
