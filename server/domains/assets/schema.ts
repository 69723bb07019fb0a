/** Asset records, their JSON shape and the request schemas of the assets routes. */
import { z } from 'zod';
import { PageQuery } from '../../http/paging.js';

export const ASSET_TYPES = ['image', 'audio', 'video', 'document', 'svg', 'other'] as const;
export const AssetType = z.enum(ASSET_TYPES);

export const Tag = z
  .string()
  .trim()
  .min(1, 'tags must not be empty')
  .max(64, 'a tag has at most 64 characters');
export const Tags = z
  .array(Tag)
  .max(32, 'at most 32 tags')
  .transform((tags) => [...new Set(tags)]);
export const DisplayName = z
  .string()
  .trim()
  .min(1, 'displayName must not be empty')
  .max(200, 'displayName has at most 200 characters');

/** What is stored; the bytes are the blob `workspaces/<workspaceId>/files/<id>`. */
export type AssetRecord = {
  id: string;
  key: string;
  displayName: string;
  filename: string;
  tags: string[];
  type: z.infer<typeof AssetType>;
  size: number;
  contentType: string;
  sha256: string;
  width?: number;
  height?: number;
  duration?: number;
  /** Lower-cased names and tags, for `search` (collections.ts). */
  searchText: string;
  createdAt: string;
  updatedAt: string;
};

export const Asset = z.object({
  id: z.string(),
  displayName: z.string(),
  filename: z.string(),
  tags: z.array(z.string()),
  type: AssetType,
  size: z.number().int(),
  contentType: z.string(),
  sha256: z.string(),
  key: z.string().describe('Opaque key used in the public serve URLs'),
  urls: z.object({
    file: z.string(),
    img: z.string().optional(),
    thumb: z.string().optional(),
    audio: z.string().optional(),
  }),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  duration: z.number().optional().describe('Seconds, for audio and video'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Asset = z.infer<typeof Asset>;

export const AssetList = z.object({ data: z.array(Asset), nextCursor: z.string().nullable() });
export type AssetList = z.infer<typeof AssetList>;

export const ListAssetsQuery = z.object({
  type: AssetType.optional(),
  search: z.string().max(200).optional(),
  tags: z
    .string()
    .optional()
    .transform((s) =>
      s
        ? s
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
        : [],
    ),
  ...PageQuery,
});
export type ListAssetsQuery = z.infer<typeof ListAssetsQuery>;

export const AssetParams = z.object({ id: z.string().min(1).max(64) });
export const KeyParams = z.object({ key: z.string() });

export const PatchAssetBody = z
  .strictObject({ displayName: DisplayName.optional(), tags: Tags.optional() })
  .refine((b) => b.displayName !== undefined || b.tags !== undefined, 'send displayName and/or tags');
export type PatchAssetBody = z.infer<typeof PatchAssetBody>;

export const MAX_GRANT_SECONDS = 3600;
export const MintGrantBody = z
  .strictObject({
    expiresIn: z
      .number()
      .int()
      .min(10, 'expiresIn is at least 10 seconds')
      .max(MAX_GRANT_SECONDS, 'expiresIn is at most 3600 seconds')
      .default(600),
    maxBytes: z.number().int().min(1).optional(),
    allowedTypes: z
      .array(z.string().min(1).max(100))
      .max(32)
      .optional()
      .describe('Content types (image/png, image/*) or asset types (image, audio, ...)'),
    displayName: DisplayName.optional(),
    tags: Tags.optional(),
  })
  .default({ expiresIn: 600 });
export type MintGrantBody = z.infer<typeof MintGrantBody>;

export const UploadGrant = z.object({
  grant: z.string().describe('fg_ + 32 base62 chars; shown once'),
  expiresAt: z.string(),
  uploadUrl: z.string(),
  maxBytes: z.number().optional(),
  allowedTypes: z.array(z.string()).optional(),
});

export type UploadGrantRecord = {
  id: string;
  hash: string;
  workspaceId: string;
  keyId?: string;
  createdAt: string;
  expiresAt: string;
  maxBytes?: number;
  allowedTypes?: string[];
  displayName?: string;
  tags?: string[];
  /** Set while an upload holds the grant (single use: one claim at a time); cleared if it fails. */
  claimedAt?: string | null;
  usedAt?: string | null;
  assetId?: string;
};

export const Usage = z.object({ assets: z.number().int(), bytes: z.number().int() });
export type Usage = z.infer<typeof Usage>;
