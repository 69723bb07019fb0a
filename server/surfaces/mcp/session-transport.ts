// One MCP session's transport. The session's McpServer stays connected to it for the session's life; each HTTP
// request is handed to a fresh SDK Streamable HTTP transport in its stateless form, which reads and answers that one
// request. That lets each request choose its answer (bench/README.md, MCP, says what it saves): a plain call gets
// its JSON-RPC answer as one JSON body, written at once as REST writes; a call that asked for progress (a
// progressToken) and the GET stream get SSE, so their notifications still flow. The session id, its binding to a
// key, and the one GET stream a session may hold are Folio's (sessions.ts, service.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { HttpError } from '../../http/errors.js';

export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** The request transport each request in flight came in on: its answer and notifications go back there. */
  readonly #answering = new Map<RequestId, StreamableHTTPServerTransport>();
  readonly #open = new Set<StreamableHTTPServerTransport>();
  /** The GET stream: where notifications about no request go. */
  #stream: StreamableHTTPServerTransport | undefined;
  #closed = false;

  constructor(
    readonly sessionId: string,
    private readonly bodyBytes: number,
  ) {}

  async start(): Promise<void> {}

  /** Reads and answers one HTTP request to /mcp in this session; `body` is the JSON already read, if any. */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    if (req.method === 'GET' && this.#stream)
      throw new HttpError(409, 'This session already has its stream open: one GET stream per session');
    const request = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: req.method === 'POST' && !asksForProgress(body),
      maxRequestBodySize: this.bodyBytes,
      onsessionclosed: () => void this.close(),
    });
    request.onerror = (error) => this.onerror?.(error);
    request.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.#answering.set(message.id, request);
      this.onmessage?.(message, extra);
    };
    if (req.method === 'GET') this.#stream = request;
    this.#open.add(request);
    res.setHeader('mcp-session-id', this.sessionId);
    try {
      await request.handleRequest(req, res, body);
    } finally {
      this.#open.delete(request);
      if (this.#stream === request) this.#stream = undefined;
      await request.close(); // an answer that comes after the client left is dropped, not an error
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answers = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const requestId = answers ? message.id : options?.relatedRequestId;
    if (requestId === undefined) return this.#stream?.send(message, options);
    const request = this.#answering.get(requestId);
    if (answers) this.#answering.delete(requestId);
    await request?.send(message, options);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const open = [...this.#open];
    this.#answering.clear();
    await Promise.all(open.map((request) => request.close()));
    this.onclose?.();
  }
}

/** A request whose caller asked for progress notifications, which only an SSE answer can carry. */
function asksForProgress(body: unknown): boolean {
  const message = Array.isArray(body) ? body[0] : body;
  const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | undefined)?.params?._meta;
  return meta?.progressToken !== undefined;
}
