// One live dictation: microphone → 16 kHz PCM (AudioWorklet) → the realtime WebSocket → partial and final text.
import { useCallback, useEffect, useRef, useState } from 'react';
import { createRealtimeSession } from '../api/create-session';

export type DictationState = 'idle' | 'connecting' | 'live' | 'closing' | 'closed' | 'error';
export type Final = { text: string; start: number; end: number };

type ServerEvent =
  | { type: 'session.started' }
  | { type: 'transcript.partial'; text: string; start: number; end: number }
  | { type: 'transcript.final'; text: string; start: number; end: number }
  | { type: 'error'; error: string }
  | { type: 'session.closed'; transcriptId?: string; assetId?: string };

export function useDictation() {
  const [state, setState] = useState<DictationState>('idle');
  const [finals, setFinals] = useState<Final[]>([]);
  const [partial, setPartial] = useState('');
  const [level, setLevel] = useState(0);
  const [seconds, setSeconds] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [kept, setKept] = useState<{ transcriptId?: string; assetId?: string } | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const audio = useRef<{ context: AudioContext; stream: MediaStream } | null>(null);

  const stopAudio = useCallback(() => {
    for (const track of audio.current?.stream.getTracks() ?? []) track.stop();
    void audio.current?.context.close().catch(() => undefined);
    audio.current = null;
    setLevel(0);
  }, []);

  const onEvent = useCallback(
    (event: ServerEvent) => {
      if (event.type === 'transcript.partial') setPartial(event.text.trim());
      else if (event.type === 'transcript.final') {
        setPartial('');
        if (event.text.trim())
          setFinals((list) => [...list, { text: event.text.trim(), start: event.start, end: event.end }]);
      } else if (event.type === 'error') setProblem(event.error);
      else if (event.type === 'session.closed') {
        setKept(event.transcriptId ? { transcriptId: event.transcriptId, assetId: event.assetId } : null);
        setState('closed');
        stopAudio();
      }
    },
    [stopAudio],
  );

  const start = useCallback(async () => {
    setState('connecting');
    setFinals([]);
    setPartial('');
    setProblem(null);
    setKept(null);
    setSeconds(0);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
      });
      const context = new AudioContext({ sampleRate: 16_000 });
      audio.current = { context, stream };
      await context.audioWorklet.addModule(new URL('./pcm-worklet.js', import.meta.url));
      const session = await createRealtimeSession();
      const ws = new WebSocket(
        `${session.websocketUrl}?client_secret=${encodeURIComponent(session.clientSecret.value)}`,
      );
      ws.binaryType = 'arraybuffer';
      socket.current = ws;
      ws.onmessage = (message) => onEvent(JSON.parse(String(message.data)) as ServerEvent);
      ws.onclose = () => {
        setState((s) => (s === 'closed' ? s : s === 'closing' ? 'closed' : 'error'));
        stopAudio();
      };
      await new Promise<void>((resolve, reject) => {
        ws.onopen = () => resolve();
        ws.onerror = () => reject(new Error('The live session could not connect'));
      });
      const node = new AudioWorkletNode(context, 'folio-pcm-writer');
      node.port.onmessage = ({ data }: MessageEvent<{ pcm: ArrayBuffer; level: number }>) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(data.pcm);
        setLevel(data.level);
        setSeconds((s) => s + 0.1);
      };
      context.createMediaStreamSource(stream).connect(node);
      setState('live');
    } catch (error) {
      stopAudio();
      socket.current?.close();
      const message =
        (error as Error).name === 'NotAllowedError'
          ? 'Microphone access was refused. Allow it in the browser or system settings.'
          : (error as Error).message;
      setProblem(message);
      setState('error');
    }
  }, [onEvent, stopAudio]);

  const commit = useCallback(() => socket.current?.send(JSON.stringify({ type: 'commit' })), []);

  const stop = useCallback(
    (keep: boolean) => {
      const ws = socket.current;
      stopAudio();
      if (!ws || ws.readyState !== WebSocket.OPEN) return setState('closed');
      setState('closing');
      ws.send(JSON.stringify({ type: 'close', keep }));
    },
    [stopAudio],
  );

  useEffect(
    () => () => {
      socket.current?.close();
      stopAudio();
    },
    [stopAudio],
  );

  return { state, finals, partial, level, seconds, problem, kept, start, commit, stop };
}
