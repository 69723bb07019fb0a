/**
 * How loud each of a recording's two channels is, frame by frame: the evidence speakers-by-channel.ts reads.
 * A second bounded ffmpeg decode (decode-audio.ts) at 8 kHz stereo, streamed and reduced as it arrives, so a long
 * recording costs a few megabytes of frames rather than its PCM. A mono recording decodes as two equal channels.
 */
import { Writable } from 'node:stream';
import { type DecodeOptions, decodePcm } from './decode-audio.js';

/** Speech energy lies below 4 kHz, so 8 kHz keeps what tells voices apart at half the work of 16 kHz. */
const LAYOUT = { sampleRate: 8_000, channels: 2 };
export const ENERGY_FRAME_SECONDS = 0.02;
const FRAME_SAMPLES = LAYOUT.sampleRate * ENERGY_FRAME_SECONDS;
const BYTES_PER_SAMPLE_PAIR = 8;

/** Mean square per frame of the left and right channels, and of their difference (zero when they are equal). */
export type ChannelEnergy = { left: Float32Array; right: Float32Array; difference: Float32Array };

export async function readChannelEnergy(inputPath: string, options: DecodeOptions): Promise<ChannelEnergy> {
  const frames = createFrameSink();
  await decodePcm(inputPath, frames.sink, LAYOUT, options);
  return frames.energy();
}

function createFrameSink() {
  const left: number[] = [];
  const right: number[] = [];
  const difference: number[] = [];
  let sums = [0, 0, 0];
  let count = 0;
  let carry = Buffer.alloc(0); // a sample pair split across two chunks

  const closeFrame = () => {
    left.push(sums[0] / count);
    right.push(sums[1] / count);
    difference.push(sums[2] / count);
    sums = [0, 0, 0];
    count = 0;
  };

  const sink = new Writable({
    write(chunk: Buffer, _encoding, next) {
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = bytes.length - (bytes.length % BYTES_PER_SAMPLE_PAIR);
      // copied into a Float32Array of its own: a chunk's offset need not be 4-byte aligned (little-endian hosts)
      const samples = new Float32Array(whole / 4);
      new Uint8Array(samples.buffer).set(bytes.subarray(0, whole));
      for (let at = 0; at < samples.length; at += 2) {
        const l = samples[at];
        const r = samples[at + 1];
        sums[0] += l * l;
        sums[1] += r * r;
        sums[2] += (l - r) * (l - r);
        if (++count === FRAME_SAMPLES) closeFrame();
      }
      carry = Buffer.from(bytes.subarray(whole));
      next();
    },
  });

  return {
    sink,
    energy(): ChannelEnergy {
      if (count > 0) closeFrame();
      return {
        left: Float32Array.from(left),
        right: Float32Array.from(right),
        difference: Float32Array.from(difference),
      };
    },
  };
}
