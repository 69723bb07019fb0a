import { api } from '../../../api/client';
import type { RealtimeSession } from '../../../api/types';

/** A single-use client secret and the WebSocket URL for one live session (docs/transcription.md, "Realtime"). */
export const createRealtimeSession = () =>
  api<RealtimeSession>('/api/v1/realtime/sessions', { method: 'POST', body: { expiresIn: 60 } });
