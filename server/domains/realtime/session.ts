/**
 * One realtime voice session over a WebSocket (protocol in ../docs.ts). Audio arrives as binary PCM s16le 16 kHz
 * mono; every `partialEvery` seconds of new audio the trailing window is re-transcribed (transcript.partial);
 * commit/close transcribe everything since the last commit (transcript.final). Engine calls run one at a time:
 * a partial is skipped while one is still running, a final waits for it.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nanoid } from 'nanoid';
import type { RawData, WebSocket } from 'ws';
import type { ActiveEngine } from '../../engines/whisper/active-engine.js';
import { decodePcmS16ToF32 } from '../../engines/whisper/decode-audio.js';
import type { EngineResult } from '../../engines/whisper/types.js';
import type { TranscriptSegment, TranscriptWord } from '../transcripts/schema.js';
import type { TranscriptService } from '../transcripts/service.js';
import type { UploadService } from '../uploads/service.js';
import { SAMPLE_RATE } from './schema.js';
import { writeWav } from './wav.js';

export { SAMPLE_RATE };

const BYTES_PER_SECOND = SAMPLE_RATE * 2;

export interface RealtimeOptions {
  /** Seconds of new audio between partial transcripts. */
  partialEvery: number;
  /** Seconds of trailing audio a partial covers. */
  window: number;
  /** Longest session, in seconds of audio. */
  maxSeconds: number;
}

export const defaultRealtimeOptions: RealtimeOptions = { partialEvery: 1.5, window: 10, maxSeconds: 30 * 60 };

export interface RealtimeDeps {
  workspaceId: string;
  sessionId: string;
  active: ActiveEngine;
  transcripts: TranscriptService;
  uploads: Pick<UploadService, 'createFromFile'>;
  tmpDir: string;
  options?: Partial<RealtimeOptions>;
}

type ClientMessage = { type: 'commit' } | { type: 'close'; keep?: boolean };

export function runRealtimeSession(ws: WebSocket, deps: RealtimeDeps): void {
  const options = { ...defaultRealtimeOptions, ...deps.options };
  const chunks: Buffer[] = [];
  let bytes = 0;
  let odd: Buffer | undefined; // a frame may split a sample
  let committedBytes = 0;
  let partialAtBytes = 0;
  let partialRunning = false;
  let closing = false;
  let engineQueue: Promise<unknown> = Promise.resolve();
  const finals: {
    segments: TranscriptSegment[];
    words: TranscriptWord[];
    text: string;
    language?: string;
  }[] = [];

  const send = (event: Record<string, unknown>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
  };
  let lastError: string | undefined;
  /** The same problem (e.g. no model) is reported once, not on every partial. */
  const sendError = (error: string) => {
    if (error !== lastError) send({ type: 'error', error });
    lastError = error;
  };
  /** Engine work in arrival order; a failure is reported, never thrown at the socket. */
  const onEngine = <T>(fn: () => Promise<T>) => {
    const run = engineQueue.then(fn);
    engineQueue = run.then(
      () => {
        lastError = undefined;
      },
      (error) => sendError((error as Error).message),
    );
    return run;
  };

  send({
    type: 'session.started',
    id: deps.sessionId,
    audio: { format: 'pcm16', sampleRate: SAMPLE_RATE, channels: 1 },
  });

  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (closing) return;
    if (isBinary) return onAudio(toBuffer(data));
    let message: ClientMessage;
    try {
      message = JSON.parse(toBuffer(data).toString('utf8')) as ClientMessage;
    } catch {
      return send({
        type: 'error',
        error: 'Text frames must be JSON: {"type":"commit"} or {"type":"close","keep":true}',
      });
    }
    if (message.type === 'commit') void onEngine(finalize).catch(() => undefined);
    else if (message.type === 'close') void close(Boolean(message.keep));
    else
      send({
        type: 'error',
        error: `Unknown message type "${(message as { type?: unknown }).type}": use commit or close`,
      });
  });
  ws.on('close', () => {
    closing = true; // the client went away without a close message: nothing is kept
  });

  function onAudio(frame: Buffer): void {
    const joined = odd ? Buffer.concat([odd, frame]) : frame;
    const even = joined.length - (joined.length % 2);
    odd = even < joined.length ? joined.subarray(even) : undefined;
    if (even === 0) return;
    if (bytes + even > options.maxSeconds * BYTES_PER_SECOND) {
      send({
        type: 'error',
        error: `A realtime session holds at most ${options.maxSeconds} s of audio; send {"type":"close","keep":true}`,
      });
      return;
    }
    chunks.push(Buffer.from(joined.subarray(0, even)));
    bytes += even;
    if (!partialRunning && bytes - partialAtBytes >= options.partialEvery * BYTES_PER_SECOND) void partial();
  }

  /** Re-transcribes the trailing window of uncommitted audio. */
  async function partial(): Promise<void> {
    partialRunning = true;
    partialAtBytes = bytes;
    const startBytes = Math.max(committedBytes, bytes - options.window * BYTES_PER_SECOND);
    const endBytes = bytes;
    try {
      const result = await onEngine(() => transcribe(startBytes, endBytes));
      if (!closing && startBytes >= committedBytes)
        send({
          type: 'transcript.partial',
          text: result.text,
          start: startBytes / BYTES_PER_SECOND,
          end: endBytes / BYTES_PER_SECOND,
        });
    } catch {
      // reported by onEngine
    } finally {
      partialRunning = false;
    }
  }

  /** Everything since the last commit becomes final. */
  async function finalize(): Promise<void> {
    const startBytes = committedBytes;
    const endBytes = bytes;
    committedBytes = endBytes;
    partialAtBytes = Math.max(partialAtBytes, endBytes);
    if (endBytes - startBytes < BYTES_PER_SECOND / 10) {
      send({
        type: 'transcript.final',
        text: '',
        segments: [],
        start: startBytes / BYTES_PER_SECOND,
        end: endBytes / BYTES_PER_SECOND,
      });
      return;
    }
    const result = await transcribe(startBytes, endBytes);
    const offset = startBytes / BYTES_PER_SECOND;
    const segments = result.segments.map((s) => ({
      id: 0,
      start: round(s.start + offset),
      end: round(s.end + offset),
      text: s.text,
    }));
    const words = result.segments.flatMap((s) =>
      s.words.map((w) => ({
        word: w.word,
        start: round(w.start + offset),
        end: round(w.end + offset),
        probability: w.probability,
      })),
    );
    finals.push({ segments, words, text: result.text, language: result.language });
    send({
      type: 'transcript.final',
      text: result.text,
      segments,
      start: offset,
      end: endBytes / BYTES_PER_SECOND,
    });
  }

  async function transcribe(startBytes: number, endBytes: number): Promise<EngineResult> {
    const pcm = decodePcmS16ToF32(slice(startBytes, endBytes));
    return deps.active.use(undefined, (engine) => engine.transcribePcm(pcm));
  }

  /** Copies only bytes [start, end) out of the received frames. */
  function slice(start: number, end: number): Buffer {
    const out = Buffer.alloc(end - start);
    let at = 0;
    for (const chunk of chunks) {
      const from = Math.max(start - at, 0);
      const to = Math.min(end - at, chunk.length);
      if (to > from) chunk.copy(out, at + from - start, from, to);
      at += chunk.length;
      if (at >= end) break;
    }
    return out;
  }

  async function close(keep: boolean): Promise<void> {
    if (closing) return;
    closing = true;
    try {
      await onEngine(finalize);
      const kept = keep && bytes > 0 ? await keepSession() : {};
      send({ type: 'session.closed', ...kept });
    } catch (error) {
      send({ type: 'error', error: (error as Error).message });
      send({ type: 'session.closed' });
    } finally {
      ws.close(1000);
    }
  }

  /** The recording as a WAV asset and the finals as a completed transcript. */
  async function keepSession(): Promise<{ transcriptId: string; assetId: string }> {
    const path = join(deps.tmpDir, `realtime-${nanoid(12)}.wav`);
    await writeWav(path, chunks, SAMPLE_RATE).catch(async (error) => {
      await rm(path, { force: true });
      throw error;
    });
    const at = new Date().toISOString().replace(/[:.]/g, '-');
    const asset = await deps.uploads.createFromFile(deps.workspaceId, {
      path,
      filename: `realtime-${at}.wav`,
      contentType: 'audio/wav',
      tags: ['realtime'],
    });
    const segments = finals.flatMap((f) => f.segments).map((s, id) => ({ ...s, id }));
    const transcript = await deps.transcripts.createCompleted(deps.workspaceId, {
      audioAssetId: asset.id,
      source: 'realtime',
      result: {
        language: finals.find((f) => f.language)?.language,
        duration: round(bytes / BYTES_PER_SECOND),
        text: finals
          .map((f) => f.text)
          .filter(Boolean)
          .join(' '),
        segments,
        words: finals.flatMap((f) => f.words),
      },
    });
    return { transcriptId: transcript.id, assetId: asset.id };
  }
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data as ArrayBuffer);
}
