// API types, derived from the server's own zod schemas and services (type-only: erased at build), so the
// dashboard cannot drift from the route table. Nothing here is written by hand.

import type {
  ASSET_TYPES,
  AssetList as AssetListSchema,
  Asset as AssetSchema,
} from '@server/domains/assets/schema';
import type {
  Me as MeSchema,
  Profile as ProfileSchema,
  SignInLink as SignInLinkSchema,
  WaitlistEntry as WaitlistEntrySchema,
} from '@server/domains/identity/schema';
import type {
  ApiKey as ApiKeySchema,
  CreatedApiKey as CreatedApiKeySchema,
  ServiceList as ServiceListSchema,
} from '@server/domains/keys/schema';
import type {
  ModelDownload as ModelDownloadSchema,
  ModelsOverview as ModelsOverviewSchema,
} from '@server/domains/models/schema';
import type { ArtifactDocument as ArtifactDocumentSchema } from '@server/domains/publishing/artifacts/schema';
import type { ChartSpec as ChartSpecSchema } from '@server/domains/publishing/charts/schema';
import type { DiagramSvg as DiagramSvgSchema } from '@server/domains/publishing/diagrams/schema';
import type {
  ListQuery as PublicationListQuerySchema,
  PublicationSummary as PublicationSummarySchema,
  VersionList as VersionListSchema,
  Visibility as VisibilitySchema,
} from '@server/domains/publishing/schema';
import type { RealtimeSession as RealtimeSessionSchema } from '@server/domains/realtime/schema';
import type {
  EXPORT_FORMATS,
  TRANSCRIPT_STATUSES,
  TranscriptList as TranscriptListSchema,
  Transcript as TranscriptSchema,
  TranscriptSummary as TranscriptSummarySchema,
  TranscriptWord as TranscriptWordSchema,
} from '@server/domains/transcripts/schema';
import type {
  ChunkedUpload as ChunkedUploadSchema,
  CompletedUpload as CompletedUploadSchema,
} from '@server/domains/uploads/chunked/schema';
import type {
  Workspace as WorkspaceSchema,
  WorkspaceWithUsage as WorkspaceWithUsageSchema,
} from '@server/domains/workspaces/schema';
import type { SERVICE_NAMES } from '@server/http/viewer';
import type { z } from 'zod';

type Out<S extends z.ZodType> = z.output<S>;

export type Me = Out<typeof MeSchema>;
export type Profile = Out<typeof ProfileSchema>;
export type Workspace = Out<typeof WorkspaceSchema>;
export type WorkspaceWithUsage = Out<typeof WorkspaceWithUsageSchema>;
export type ApiKey = Out<typeof ApiKeySchema>;
export type CreatedApiKey = Out<typeof CreatedApiKeySchema>;
export type ServiceName = (typeof SERVICE_NAMES)[number];
export type ServiceList = Out<typeof ServiceListSchema>;
export type Asset = Out<typeof AssetSchema>;
export type AssetList = Out<typeof AssetListSchema>;
export type AssetType = (typeof ASSET_TYPES)[number];
export type Transcript = Out<typeof TranscriptSchema>;
export type TranscriptSummary = Out<typeof TranscriptSummarySchema>;
export type TranscriptList = Out<typeof TranscriptListSchema>;
export type TranscriptWord = Out<typeof TranscriptWordSchema>;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ChunkedUpload = Out<typeof ChunkedUploadSchema>;
export type CompletedUpload = Out<typeof CompletedUploadSchema>;
export type RealtimeSession = Out<typeof RealtimeSessionSchema>;
export type WaitlistEntry = Out<typeof WaitlistEntrySchema>;
export type SignInLink = Out<typeof SignInLinkSchema>;
export type ModelOverview = Out<typeof ModelsOverviewSchema>;
export type ModelDownload = Out<typeof ModelDownloadSchema>;
export type List<T> = { data: T[]; nextCursor?: string | null };

/** The three kinds of published items, named as their services and routes are. */
export type PublicationKind = Extract<ServiceName, 'diagrams' | 'charts' | 'artifacts'>;
export type Visibility = Out<typeof VisibilitySchema>;
export type Publication = Out<typeof PublicationSummarySchema>;
/** One version with its document: `svg` for diagrams, `spec` for charts, `document` for artifacts. */
export type PublicationDetail = Publication & {
  svg?: Out<typeof DiagramSvgSchema>;
  spec?: Out<typeof ChartSpecSchema>;
  document?: Out<typeof ArtifactDocumentSchema>;
};
export type PublicationVersion = Out<typeof VersionListSchema>['data'][number];
export type PublicationFilters = Partial<
  Pick<Out<typeof PublicationListQuerySchema>, 'q' | 'includeArchived'>
> & {
  tag?: string;
  kind?: string;
};
