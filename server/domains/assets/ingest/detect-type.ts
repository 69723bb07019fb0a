/**
 * Content type from the bytes (file-type), never from the client's header; SVG and text by sniffing, since
 * file-type reads signatures only. The client's filename only picks between text flavours.
 */
import { open } from 'node:fs/promises';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';

export type AssetType = 'image' | 'audio' | 'video' | 'document' | 'svg' | 'other';

export interface DetectedType {
  contentType: string;
  assetType: AssetType;
}

const SNIFF_BYTES = 4096;
const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/rtf',
  'application/epub+zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/msword',
  'application/x-cfb',
]);
const TEXT_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip',
};

/** From a file's path, or from its bytes when they are all in memory (a small blob received whole). */
export async function detectType(source: string | Buffer, filename: string): Promise<DetectedType> {
  const signature = await (typeof source === 'string'
    ? fileTypeFromFile(source)
    : fileTypeFromBuffer(source));
  const xml = signature?.mime === 'application/xml' || signature?.mime === 'text/xml'; // <?xml may still be an SVG
  if (signature && !xml) return { contentType: signature.mime, assetType: assetTypeOf(signature.mime) };
  const head = typeof source === 'string' ? await readHead(source) : source.subarray(0, SNIFF_BYTES);
  if (!isProbablyText(head)) return { contentType: 'application/octet-stream', assetType: 'other' };
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  if (looksLikeSvg(text)) return { contentType: 'image/svg+xml', assetType: 'svg' };
  if (xml) return { contentType: 'application/xml', assetType: 'other' };
  if (/^\s*(<!doctype html|<html|<head|<body|<script)/i.test(text))
    return { contentType: 'text/html; charset=utf-8', assetType: 'other' };
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  return { contentType: TEXT_BY_EXTENSION[ext] ?? 'text/plain; charset=utf-8', assetType: 'document' };
}

export function assetTypeOf(mime: string): AssetType {
  if (mime === 'image/svg+xml') return 'svg';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (DOCUMENT_TYPES.has(mime)) return 'document';
  return 'other';
}

/** Root element is <svg>, possibly after an XML declaration, comments and a doctype. */
function looksLikeSvg(text: string): boolean {
  const stripped = text.replace(/<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^>]*>/gi, '').trimStart();
  return /^<svg[\s>]/i.test(stripped);
}

function isProbablyText(head: Buffer): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  const text = head.toString('utf8');
  const bad = text.split('\uFFFD').length - 1;
  return bad <= 1; // one replacement char may be a multi-byte sequence cut at SNIFF_BYTES
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
