// What a route answered, as an MCP tool result: JSON as structuredContent plus a text block (a one-line
// summary, then the JSON for clients that only read text), bytes as text or image content, and every error
// as a tool error carrying the same `{ error, ...details }` body and the HTTP status the route would send.
import { Readable } from 'node:stream';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toResponse } from '../../../http/error-boundary.js';
import { payloadTooLarge } from '../../../http/errors.js';
import { JsonText } from '../../../http/json-text.js';
import { isReply, type Reply } from '../../../http/reply.js';
import type { Logger } from '../../../log.js';

const MAX_INLINE_BYTES = 16 << 20;

export async function toolResult(name: string, result: unknown): Promise<CallToolResult> {
  if (isReply(result)) return replyResult(name, result);
  if (result === undefined) return { content: [{ type: 'text', text: `${name}: done` }] };
  if (result instanceof JsonText) return jsonResult(name, result.value, result.text);
  return jsonResult(name, result, JSON.stringify(result));
}

function jsonResult(name: string, result: unknown, json: string): CallToolResult {
  const text = `${summarize(name, result)}\n${json}`;
  const structured = isObject(result) ? { structuredContent: result } : {};
  return { content: [{ type: 'text', text }], ...structured };
}

export function toolError(error: unknown, log: Logger, tool: string): CallToolResult {
  const { status, body } = toResponse(error, log, `MCP tool ${tool}`);
  return {
    isError: true,
    content: [{ type: 'text', text: `${status}: ${body.error}` }],
    structuredContent: { httpStatus: status, ...body },
  };
}

/** One line that says what came back: a count for lists, the id and state for one record. */
export function summarize(name: string, value: unknown): string {
  if (!isObject(value)) return `${name}: ${Array.isArray(value) ? `${value.length} items` : String(value)}`;
  if (Array.isArray(value.data)) {
    const more = value.nextCursor ? `; more with cursor ${String(value.nextCursor)}` : '';
    return `${name}: ${value.data.length} ${value.data.length === 1 ? 'item' : 'items'}${more}`;
  }
  const facts = ['id', 'slug', 'status', 'title', 'displayName', 'version']
    .filter((k) => value[k] !== undefined && typeof value[k] !== 'object')
    .map((k) => `${k} ${String(value[k])}`);
  const url = pageUrlOf(value);
  return [`${name}:`, facts.join(', ') || 'ok', url ? `— ${url}` : ''].filter(Boolean).join(' ');
}

function pageUrlOf(value: Record<string, unknown>): string | undefined {
  const urls = value.urls;
  if (!isObject(urls)) return undefined;
  const url = urls.page ?? urls.file;
  return typeof url === 'string' ? url : undefined;
}

async function replyResult(name: string, reply: Reply): Promise<CallToolResult> {
  const isError = 'status' in reply && typeof reply.status === 'number' && reply.status >= 400;
  switch (reply.kind) {
    case 'empty':
      return { content: [{ type: 'text', text: `${name}: done` }], ...(isError && { isError }) };
    case 'redirect':
      return { content: [{ type: 'text', text: `${name}: see ${reply.url}` }] };
    case 'handled':
      throw new Error(`${name} wrote its own HTTP response; it cannot be a tool`);
    case 'bytes':
    case 'stream': {
      const bytes = reply.kind === 'bytes' ? Buffer.from(reply.body) : await readBounded(reply.body);
      const result = bytesContent(name, reply.contentType, bytes);
      if (!isError) return result;
      const httpStatus = reply.status;
      return { ...result, isError, structuredContent: { httpStatus, ...result.structuredContent } };
    }
  }
}

function bytesContent(name: string, contentType: string, bytes: Buffer): CallToolResult {
  const mimeType = contentType.split(';')[0].trim();
  if (mimeType.startsWith('image/') && mimeType !== 'image/svg+xml')
    return { content: [{ type: 'image', data: bytes.toString('base64'), mimeType }] };
  if (isText(mimeType)) {
    const text = bytes.toString('utf8');
    if (mimeType === 'application/json') {
      const value = JSON.parse(text) as unknown;
      return isObject(value)
        ? { content: [{ type: 'text', text }], structuredContent: value }
        : { content: [{ type: 'text', text }] };
    }
    return { content: [{ type: 'text', text }] };
  }
  const blob = bytes.toString('base64');
  return { content: [{ type: 'resource', resource: { uri: `folio://results/${name}`, mimeType, blob } }] };
}

const isText = (mimeType: string) =>
  mimeType.startsWith('text/') ||
  ['application/json', 'application/x-subrip', 'image/svg+xml', 'application/xml'].includes(mimeType);

async function readBounded(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of Readable.from(stream)) {
    size += (chunk as Buffer).length;
    if (size > MAX_INLINE_BYTES) {
      stream.destroy();
      throw payloadTooLarge('The answer is too large to return through MCP; use the REST route');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
