// JSON request bodies: UTF-8 only (RFC 8259 §8.1) and decoded strictly, so invalid bytes are a 400 rather
// than silently stored as U+FFFD (co-body, under koa-body, decodes leniently); bounded by the JSON limit
// through raw-body; prototype keys refused (docs/api.md#limits).
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { badRequest, payloadTooLarge, unsupportedMediaType } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads, decodes and parses one JSON body of at most `limit` bytes. */
export async function readJsonBody(req: IncomingMessage, charset: string, limit: number): Promise<unknown> {
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    throw unsupportedMediaType(`Send JSON as UTF-8 (got charset=${charset})`);
  if (Number(req.headers['content-length']) > limit) throw payloadTooLarge('Request body is too large');
  const bytes = await getRawBody(req, { limit }).catch((error: { type?: string }) => {
    if (error.type === 'entity.too.large') throw payloadTooLarge('Request body is too large');
    throw badRequest('Request body could not be read');
  });
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) throw badRequest('Request body is nested too deeply');
    throw badRequest(`Request body is not valid JSON: ${(error as Error).message}`);
  }
  const key = prototypeKeyIn(value);
  if (key)
    throw badRequest(`Invalid ${key}: prototype keys are not allowed`, {
      issues: [{ path: key, message: 'prototype keys are not allowed' }],
    });
  return value;
}

/** `__proto__`, or `constructor` holding `prototype`, anywhere in the tree; iterative, so depth costs no stack. */
function prototypeKeyIn(root: unknown): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__') return key;
      if (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)
        return key;
      stack.push(child);
    }
  }
  return undefined;
}
