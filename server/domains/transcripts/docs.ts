/** Protocol notes for /llms-full.txt (capabilities' `docs` field). */
export const transcriptionDocs = `### Transcripts

States: pending → processing → completed | failed. \`progress\` is 0–100 while processing. Retry moves pending/failed back to pending; cancel (POST /api/v1/transcripts/:id/cancel, or DELETE of a processing one) fails it with error "cancelled". Words and segments carry \`start\`/\`end\` in seconds. Export: GET /api/v1/transcripts/:id/export?format=srt|vtt|txt|json.
Options on every way in (form fields on POST /api/v1/transcribe and the OpenAI-compatible routes, arguments of transcripts_create): \`task\` transcribe|translate (English text from any language; an English-only .en model answers 400); \`vad\` true|false, on by default: voice activity detection (Silero VAD v5) sends only the speech to Whisper, times stay in the recording's timeline, and the transcript's \`vad\` is \`{ speechSeconds, skippedSeconds, speech: [{ start, end }] }\` (null when off); its thresholds \`vadThreshold\` (0.5), \`vadMinSpeechMs\` (250), \`vadMinSilenceMs\` (100), \`vadSpeechPadMs\` (30), \`vadMaxSpeechS\`; the guards against invented text \`noSpeechThreshold\` (0.6), \`entropyThreshold\` (2.4), \`logprobThreshold\` (-1), \`temperatureIncrement\` (0.2, 0 = no fallback). Silence and noise give an empty transcript.
Without an installed model every transcript fails with an error saying how to install one (the model manager: POST /api/v1/models/<name>/download then PUT /api/v1/models/active, or --whisper-model <path>).
Models are instance-wide, so downloading, importing, cancelling (DELETE /api/v1/models/downloads/<name>) and choosing the active model are for the owner of the instance only. A download body \`{ url, sha256 }\` fetches a catalog model from a mirror (checked against the catalog) or a model outside it (installed as ggml-<name>.bin); a dropped connection resumes with Range, and a file that fails its size or hash check is removed.

### Speakers

On a stereo recording with one voice per channel, each segment carries \`speaker\`: "Speaker 1" (the left channel is at least 3 dB louder while it is spoken) or "Speaker 2" (the right one). Segments where neither channel is clearly louder, and every segment of a mono or dual-mono recording, have no \`speaker\`. Exports show it (SubRip \`Speaker 1: \`, WebVTT \`<v Speaker 1>\`, a paragraph per turn in txt); /v1/audio/transcriptions keeps OpenAI's shapes without it.

### Chunked upload (key with transcription only)

1. POST /api/v1/uploads/chunked \`{ filename, contentType, size, sha256?, partSize? }\` → \`{ uploadId, partSize, partCount, expiresAt }\` (partSize default 8 MiB).
2. PUT /api/v1/uploads/chunked/:uploadId/parts/:index with the raw bytes (application/octet-stream). Index i (from 0) covers bytes [i·partSize, min(size, (i+1)·partSize)). Optional \`X-Part-SHA256: <hex>\` or \`Content-Digest: sha-256=:<base64>:\`. Any order, in parallel; re-sending replaces the part.
3. GET /api/v1/uploads/chunked/:uploadId lists \`receivedParts\` and \`missingParts\` to resume.
4. POST /api/v1/uploads/chunked/:uploadId/complete → \`{ transcript, asset }\` (a pending transcript); 400 names missing or wrong-sized parts. Calling it again returns the same ids.
DELETE aborts; an expired or aborted upload answers 410.

### OpenAI-compatible transcription

POST /v1/audio/transcriptions and POST /v1/audio/translations (into English) with a Folio key as the bearer token: any OpenAI client works with \`baseURL = <origin>/v1\`. \`model\` may be anything (the active local model) or the name of an installed model.

### Realtime protocol

1. POST /api/v1/realtime/sessions (key with realtime, or session) → \`{ id, clientSecret: { value: "frt_...", expiresAt }, websocketUrl, expiresAt, audio: { format: "pcm16", sampleRate: 16000, channels: 1 } }\`. The secret is single-use and must be used before it expires (default 60 s, \`expiresIn\` up to 600).
2. Connect a WebSocket to \`websocketUrl?client_secret=<value>\` (browsers cannot set headers). A server may instead send \`Authorization: Bearer <key with realtime>\`.
3. Client → server: binary frames of PCM signed 16-bit little-endian, 16 kHz, mono, in real time; JSON text frames \`{"type":"commit"}\` (finalize what was said since the last commit) and \`{"type":"close","keep":true|false}\`.
4. Server → client (JSON text frames):
   - \`{"type":"session.started","id","audio"}\` once connected;
   - \`{"type":"transcript.partial","text","start","end"}\` about every 1.5 s of new audio: the trailing window (≤ 10 s) re-transcribed, times in seconds from the session start; later partials replace earlier ones;
   - \`{"type":"transcript.final","text","segments":[{"id","start","end","text"}],"start","end"}\` on commit and on close;
   - \`{"type":"error","error"}\` (e.g. no model installed); the session stays open;
   - \`{"type":"session.closed","transcriptId?","assetId?"}\` then the socket closes. With \`keep: true\` the session audio is stored as a WAV asset and a completed transcript.
A session holds at most 30 minutes of audio.
`;
