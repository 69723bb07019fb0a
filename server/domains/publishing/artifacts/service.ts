/**
 * Artifacts: publishing rules for documents built from the component catalog. A document is checked
 * against the catalog in a worker, its references resolved in its own workspace, and only then stored;
 * pages are rendered in a worker by the catalog's React components and cached per version and per
 * version of what they embed.
 */

import { assertDocumentDepth } from '../../../engines/render/document-depth.js';
import type { RenderCache } from '../../../engines/render/render-cache.js';
import type { Issue } from '../../../engines/render/render-failure.js';
import type { RenderPool } from '../../../engines/render/render-pool.js';
import { badRequest } from '../../../http/errors.js';
import { SERVICE_NAMES, type ServiceName, type Viewer } from '../../../http/viewer.js';
import type { Store } from '../../../store/types.js';
import type { AssetService } from '../../assets/service.js';
import type { TranscriptService } from '../../transcripts/service.js';
import type { ChartService } from '../charts/service.js';
import type { DiagramService } from '../diagrams/service.js';
import { pageAddress, pageMeta } from '../pages/page-parts.js';
import type { Page } from '../pages/page-shell.js';
import { rendered } from '../pages/serve-rendered.js';
import { createPublications, type Found } from '../versions/publication-model.js';
import { CATALOG } from './catalog/index.js';
import { forbiddenEmbeds, isScopeIssue, scopeIssuesOf } from './embed-scope.js';
import {
  checkReferences,
  dependencyKey,
  embedsOf,
  type ReferenceDeps,
  resolveReferences,
} from './references.js';
import type { ArtifactPageInput } from './render-page.js';
import type { PublishArtifactBody, UpdateArtifactBody } from './schema.js';
import type { DocumentCheck, Reference } from './validate-document.js';

export type ArtifactServiceDeps = {
  store: Store;
  pool: RenderPool;
  cache: RenderCache;
  workspaces: { get(id: string): Promise<{ ownerId: string } | undefined> };
  assets: Pick<AssetService, 'get'>;
  transcripts: Pick<TranscriptService, 'get'>;
  charts: ChartService;
  diagrams: DiagramService;
};

const refused = (issues: Issue[]) =>
  badRequest(`The document has ${issues.length} problem(s): ${issues[0].path} ${issues[0].message}`, {
    issues,
  });

export function createArtifactService(deps: ArtifactServiceDeps) {
  const { store, pool, cache, workspaces } = deps;
  const publications = createPublications({ store, kind: 'artifacts', workspaces });
  const refs: ReferenceDeps = {
    assets: deps.assets,
    transcripts: deps.transcripts,
    charts: deps.charts,
    diagrams: deps.diagrams,
  };

  /** The catalog check in a render process, for a document no deeper than the limit (the hand-over is recursive). */
  function checkInWorker(document: unknown): Promise<DocumentCheck> {
    assertDocumentDepth(document);
    return pool.run<DocumentCheck>('artifacts.check', document);
  }

  /**
   * Every problem with the document: structure first (catalog schemas), then what it refers to, including
   * what the caller's `services` do not let it embed (a key's own; a session has every one).
   */
  async function validate(
    workspaceId: string,
    document: unknown,
    services: readonly ServiceName[] = SERVICE_NAMES,
  ): Promise<{ issues: Issue[]; references: Reference[] }> {
    const check = await checkInWorker(document);
    if (check.issues.length) return check;
    return {
      issues: await checkReferences(refs, workspaceId, check.references, services),
      references: check.references,
    };
  }

  /** The references of a document fit to store: 403 for what the caller may not embed, else 400 for any problem. */
  async function checked(workspaceId: string, document: unknown, services?: readonly ServiceName[]) {
    const { issues, references } = await validate(workspaceId, document, services);
    const outside = issues.filter(isScopeIssue);
    if (outside.length) throw forbiddenEmbeds(outside, services ?? SERVICE_NAMES);
    if (issues.length) throw refused(issues);
    return { references };
  }

  /**
   * For a version that arrives by sync: its structure (catalog schemas), and 403 for what its sender's `services`
   * do not let it embed, as publishing answers; what it names is not looked up (it may be gone since).
   */
  async function checkSynced(
    document: unknown,
    services: readonly ServiceName[] = SERVICE_NAMES,
  ): Promise<{ references: Reference[] }> {
    const check = await checkInWorker(document);
    if (check.issues.length) throw refused(check.issues);
    const outside = scopeIssuesOf(check.references, services, refs.charts.assetsNamed);
    if (outside.length) throw forbiddenEmbeds(outside, services);
    return { references: check.references };
  }

  async function publish(
    workspaceId: string,
    { document, ...meta }: PublishArtifactBody,
    services?: readonly ServiceName[],
  ) {
    return publications.create(workspaceId, {
      ...meta,
      document,
      derived: await checked(workspaceId, document, services),
    });
  }

  async function update(
    workspaceId: string,
    slug: string,
    { document, ...meta }: UpdateArtifactBody,
    services?: readonly ServiceName[],
  ) {
    return publications.update(workspaceId, slug, {
      ...meta,
      document,
      derived: await checked(workspaceId, document, services),
    });
  }

  const referencesOf = (found: Found) => (found.version.derived?.references as Reference[] | undefined) ?? [];
  const keyOf = ({ item, version }: Found, output: string) =>
    `artifacts:${item.id}@${version.version}:${output}`;

  const cardOf = (found: Found) =>
    cache.get(keyOf(found, 'card'), async () => {
      const card = await pool.run<{ bytes: Uint8Array; width: number; height: number }>('artifacts.card', {
        title: found.version.title,
        description: found.version.description,
        tags: found.version.tags,
        kind: 'artifact',
      });
      return { ...rendered(Buffer.from(card.bytes), 'image/png'), width: card.width, height: card.height };
    });

  async function pageOf(found: Found, origin: string) {
    const references = referencesOf(found);
    const embeds = await embedsOf(refs, found.workspaceId, references);
    const audience = { embeds, privatePage: found.item.visibility === 'private' };
    const depends = dependencyKey(embeds);
    return cache.get(keyOf(found, `page ${found.item.visibility} ${origin} ${depends}`), async () => {
      const [resolved, card] = await Promise.all([
        resolveReferences(refs, found.workspaceId, references, origin, audience),
        cardOf(found),
      ]);
      const address = pageAddress(found, origin, 'a');
      const input: ArtifactPageInput = {
        origin,
        document: found.version.document as ArtifactPageInput['document'],
        resolved,
        header: {
          title: found.version.title,
          description: found.version.description,
          tags: found.version.tags,
          version: found.version.version,
          updatedAt: found.version.createdAt,
        },
        meta: pageMeta(found, address, card),
      };
      const page = await pool.run<Page>('artifacts.page', input);
      return { ...rendered(page.html, 'text/html; charset=utf-8'), csp: page.csp };
    });
  }

  const service = {
    publications,
    publish,
    update,
    validate,
    checkSynced,
    catalog: () => ({
      components: CATALOG.map(({ name, description, schema, example }) => ({
        name,
        description,
        schema,
        example,
      })),
      document: {
        description:
          'An artifact document is { "children": [components] }; tabs, accordion and grid hold components too.',
        example: { children: [CATALOG[0].example, CATALOG[1].example] },
      },
    }),
    page: async (slug: string, viewer: Viewer, version: number | undefined, origin: string) => {
      const found = await publications.forPage(slug, viewer, version);
      return { found, output: await pageOf(found, origin) };
    },
    card: async (slug: string, viewer: Viewer, version?: number) => {
      const found = await publications.forPage(slug, viewer, version);
      return { found, output: await cardOf(found) };
    },
  };
  /** The service as a caller with these services uses it: publish and update embed only what they cover. */
  function actingWith(services: readonly ServiceName[]): ArtifactApi {
    return {
      ...service,
      actingWith,
      publish: (ws: string, body: PublishArtifactBody) => publish(ws, body, services),
      update: (ws: string, slug: string, body: UpdateArtifactBody) => update(ws, slug, body, services),
    };
  }
  return { ...service, actingWith };
}

type ArtifactApi = ReturnType<typeof createArtifactService>;

export type ArtifactService = ReturnType<typeof createArtifactService>;
