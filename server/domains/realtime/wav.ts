/** A 16-bit PCM WAV file from raw s16le samples (the realtime session's recording). */
import { writeFile } from 'node:fs/promises';

export function wavHeader(dataBytes: number, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // PCM fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

export async function writeWav(path: string, chunks: Buffer[], sampleRate: number): Promise<void> {
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  await writeFile(path, [wavHeader(bytes, sampleRate), ...chunks]);
}
