/** Request and response shapes every kind shares; each kind adds its document field (svg, spec, document). */
import { z } from 'zod';
import { PageQuery } from '../../http/paging.js';
import { VISIBILITIES } from './collections.js';
import { Slug } from './versions/slugs.js';

export const Title = z
  .string()
  .trim()
  .min(1, 'title must not be empty')
  .max(200, 'title has at most 200 characters');
export const Description = z.string().trim().max(1000, 'description has at most 1000 characters');
export const Tags = z
  .array(z.string().trim().min(1, 'tags must not be empty').max(64, 'a tag has at most 64 characters'))
  .max(32, 'at most 32 tags')
  .transform((tags) => [...new Set(tags)]);
export const Visibility = z.enum(VISIBILITIES);

/** What POST takes besides the document. */
export const PublishFields = {
  title: Title,
  slug: Slug.optional().describe(
    'a-z, 0-9 and -, 1–64 characters, unique on this Folio; generated from the title when absent',
  ),
  description: Description.optional(),
  tags: Tags.optional(),
};

/** What PUT takes besides the document: each field left out keeps the previous version's value. */
export const UpdateFields = {
  title: Title.optional(),
  description: Description.optional(),
  tags: Tags.optional(),
};

const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const ListQuery = z.object({
  q: z.string().max(200).optional().describe('Case-insensitive text in title, description or tags'),
  tag: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((t) =>
      t === undefined ? [] : (Array.isArray(t) ? t : t.split(',')).map((s) => s.trim()).filter(Boolean),
    )
    .describe('Repeat or comma-separate; every tag must match'),
  includeArchived: flag.describe('true to include archived items'),
  ...PageQuery,
});

export const SlugParams = z.object({ slug: z.string().min(1).max(64) });
/** Page routes read the slug off `/d/q3.svg` themselves, so the param is the bare slug there too. */
export const VersionQuery = z.object({
  version: z.coerce
    .number({ message: 'version must be a whole number ≥ 1' })
    .int()
    .min(1, 'version must be a whole number ≥ 1')
    .optional(),
});

export const VisibilityBody = z.strictObject({ visibility: Visibility });

export const Urls = z.object({ page: z.string(), svg: z.string().optional(), png: z.string().optional() });

/** A list item: everything but the document. */
export const PublicationSummary = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()),
  kind: z.string().optional(),
  visibility: Visibility,
  archived: z.boolean(),
  version: z.number().int().describe('The version this answer shows'),
  latestVersion: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  urls: Urls,
});
export type PublicationSummary = z.infer<typeof PublicationSummary>;

export const PublicationList = z.object({
  data: z.array(PublicationSummary),
  nextCursor: z.string().nullable(),
});

export const VersionList = z.object({
  data: z.array(z.object({ version: z.number().int(), title: z.string(), createdAt: z.string() })),
});

export const Warning = z.object({
  path: z.string(),
  message: z.string(),
  line: z.number().optional(),
  column: z.number().optional(),
});
