// Diagrams, charts and artifacts sync as two kinds each: the versions (`diagram-version`, id `<item id>@<n>`), every
// one of them, in order, only ever created; and the item (`diagram`), whose slug, archived flag and dates travel
// while its title, tags and latest number follow from its versions on each side and its visibility stays each
// side's own. A received document is checked and cleaned by the kind's own publishing checks, as if published here:
// whichever side sent it is not trusted, and what it reads or embeds needs the sender's services as a REST call
// would (a chart's data assets `assets`, an artifact's embeds their kinds' services).
import { z } from 'zod';
import { badRequest } from '../../../http/errors.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { ArtifactService } from '../../publishing/artifacts/service.js';
import type { ChartService } from '../../publishing/charts/service.js';
import type { DiagramService } from '../../publishing/diagrams/service.js';
import { Description, Tags, Title } from '../../publishing/schema.js';
import {
  type PublishingService,
  Slug,
  type SyncedKind,
  type SyncedVersion,
} from '../../publishing/service.js';
import { type SyncKind, splitVersionId } from '../protocol/schema.js';
import { type KindAdapter, type Payload, pickFields, Timestamp } from './types.js';

const SyncedVersionFields = z.object({
  title: Title,
  description: Description.optional(),
  tags: Tags,
  kind: z.string().max(64).optional(),
  document: z.unknown().refine((d) => d !== undefined && d !== null, 'a version has a document'),
  createdAt: Timestamp,
});

const SyncedItemFields = z.object({
  slug: Slug,
  archived: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const VERSION_FIELDS = Object.keys(SyncedVersionFields.shape);
const ITEM_FIELDS = Object.keys(SyncedItemFields.shape);

/**
 * A document checked as publishing checks it for a sender with `services`: what to store, and what the check
 * derived (a diagram's size, a chart's, an artifact's references), which each side measures for itself and so
 * never travels.
 */
type Check = (
  document: unknown,
  workspaceId: string,
  services: readonly ServiceName[],
) => Promise<{ document: unknown; derived?: Record<string, unknown> }>;

export type PublishingDeps = {
  publishing: PublishingService;
  diagrams: DiagramService;
  charts: ChartService;
  artifacts: ArtifactService;
};

export function publicationAdapters(deps: PublishingDeps): KindAdapter[] {
  const { publishing, diagrams, charts, artifacts } = deps;
  return [
    ...adaptersOf(publishing.synced('diagrams'), 'diagram', async (document) => {
      if (typeof document !== 'string') throw badRequest('A diagram version’s document is SVG text');
      const { document: svg, derived } = await diagrams.check(document);
      return { document: svg, derived };
    }),
    ...adaptersOf(publishing.synced('charts'), 'chart', async (spec, workspaceId, services) => ({
      document: spec,
      derived: await charts.checkSynced(workspaceId, spec, services),
    })),
    ...adaptersOf(publishing.synced('artifacts'), 'artifact', async (document, _, services) => ({
      document,
      derived: await artifacts.checkSynced(document, services),
    })),
  ];
}

/** The version kind and the item kind of one publishing kind, versions first (the order they are written in). */
function adaptersOf(synced: SyncedKind, kind: 'diagram' | 'chart' | 'artifact', check: Check) {
  const { items, versions } = synced.collections;
  const service = synced.kind as ServiceName;

  async function checkedVersion(
    workspaceId: string,
    payload: Payload,
    services: readonly ServiceName[],
  ): Promise<SyncedVersion> {
    const fields = payload as z.infer<typeof SyncedVersionFields>;
    const { document, derived } = await check(fields.document, workspaceId, services);
    return { ...fields, document, ...(derived && { derived }) };
  }

  const version: KindAdapter = {
    kind: `${kind}-version` as SyncKind,
    collection: versions,
    service,
    schema: SyncedVersionFields as unknown as z.ZodType<Payload>,
    payload: (row) => pickFields(row, VERSION_FIELDS),
    hashed: (fields) => fields,
    ready: () => true,
    withheld: synced.unfinished,
    blobs: () => [],
    // Never throws: an id of the wrong form is the put's to refuse, as that record's own error.
    order: (id) => {
      const parts = splitVersionId(id);
      return parts ? { lane: parts.publicationId, position: parts.number } : { lane: id, position: 0 };
    },
    async put(workspaceId, id, payload, ifSeq, { services }) {
      const { publicationId, number } = parseVersionId(id);
      return synced.putVersion(
        workspaceId,
        publicationId,
        number,
        await checkedVersion(workspaceId, payload, services),
        ifSeq,
      );
    },
    remove: (workspaceId, id, ifSeq) => synced.removeVersion(workspaceId, id, ifSeq),
    // Published again as the item's next version, the way a PUT publishes one.
    restoreCopy: async (workspaceId, id, payload, services) =>
      synced.publishAgain(workspaceId, parseVersionId(id).publicationId, async () => {
        const { createdAt: _, ...fields } = await checkedVersion(workspaceId, payload, services);
        return fields;
      }),
  };

  const item: KindAdapter = {
    kind,
    collection: items,
    service,
    schema: SyncedItemFields as unknown as z.ZodType<Payload>,
    payload: (row) => pickFields(row, ITEM_FIELDS),
    hashed: ({ updatedAt: _, ...fields }) => fields,
    ready: () => true,
    blobs: () => [],
    ownSeq: synced.ownSeq,
    put: (workspaceId, id, payload, ifSeq) =>
      synced.putItem(workspaceId, id, payload as z.infer<typeof SyncedItemFields>, ifSeq),
    remove: () => synced.removeItem(),
  };

  return [version, item];
}

function parseVersionId(id: string): { publicationId: string; number: number } {
  const parts = splitVersionId(id);
  if (!parts) throw badRequest(`A version's id is <publication id>@<version number>, not "${id}"`);
  return parts;
}
