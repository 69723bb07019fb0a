/** Slugs (docs/api.md): a-z, 0-9 and -, 1–64 characters; generated from the title plus a short random suffix. */
import { customAlphabet } from 'nanoid';
import { z } from 'zod';

/** Path words of the API that a slug would shadow (GET /api/v1/diagrams/vocabulary ...). */
export const RESERVED_SLUGS = new Set([
  'vocabulary',
  'preview',
  'layout',
  'components',
  'validate',
  'versions',
]);

export const Slug = z
  .string()
  .min(1, 'slug has 1–64 characters')
  .max(64, 'slug has 1–64 characters')
  .regex(/^[a-z0-9-]+$/, 'slug may use a-z, 0-9 and -')
  .refine((s) => !RESERVED_SLUGS.has(s), 'that slug is a reserved word of the API; pick another');

const suffix = customAlphabet('abcdefghijklmnopqrstuvwxyz0123456789', 6);

/** "Q3 Revenue — EU!" → "q3-revenue-eu-4k2j9x" (transliterated where possible, at most 64 characters). */
export function slugFromTitle(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
  return base ? `${base}-${suffix()}` : suffix();
}
