/**
 * The routes every kind shares (publish, list, get, update, versions, archive, unarchive, visibility), built
 * once here; a kind names them as its own consts (the names become operationIds) and adds its own routes.
 */
import { z } from 'zod';
import { defineRoute, type RouteDeps } from '../../../deps.js';
import type { ServiceName } from '../../../http/viewer.js';
import type { Kind } from '../collections.js';
import {
  ListQuery,
  PublicationList,
  PublicationSummary,
  SlugParams,
  VersionList,
  VersionQuery,
  VisibilityBody,
  Warning,
} from '../schema.js';
import { type PagePaths, presentItem, presentSummary } from './present-publication.js';
import type { Found, ListQuery as ListInput } from './publication-model.js';

/** What a kind's service offers the shared routes. */
export type KindService<Publish, Update> = {
  publications: {
    get(ws: string, slug: string, version?: number): Promise<Found>;
    list(ws: string, query: ListInput): Promise<{ rows: Found['item'][]; nextCursor: string | null }>;
    history(ws: string, slug: string): Promise<{ version: number; title: string; createdAt: string }[]>;
    archive(ws: string, slug: string): Promise<Found>;
    unarchive(ws: string, slug: string): Promise<Found>;
    setVisibility(ws: string, slug: string, visibility: 'private' | 'unlisted' | 'public'): Promise<Found>;
  };
  publish(ws: string, body: Publish): Promise<Found & { warnings?: z.infer<typeof Warning>[] }>;
  update(ws: string, slug: string, body: Update): Promise<Found & { warnings?: z.infer<typeof Warning>[] }>;
};

export type KindRouteOptions<PB extends z.ZodType, UB extends z.ZodType> = {
  kind: Kind;
  noun: string;
  service: ServiceName;
  paths: PagePaths;
  /** The document's field in answers (svg, spec, document) and its schema. */
  documentField: string;
  documentSchema: z.ZodType;
  publishBody: PB;
  updateBody: UB;
  /** Extra list filters of the kind (diagrams: `kind`). */
  listQuery?: z.ZodObject;
  listDescription: string;
  serviceOf: (deps: RouteDeps) => KindService<z.output<PB>, z.output<UB>>;
};

export function publicationRoutes<PB extends z.ZodType, UB extends z.ZodType>(
  options: KindRouteOptions<PB, UB>,
) {
  const { kind, noun, service, paths, documentField, serviceOf } = options;
  const base = `/api/v1/${kind}`;
  const Full = PublicationSummary.extend({
    [documentField]: options.documentSchema,
    warnings: z.array(Warning).optional(),
  });
  const full = (found: Found & { warnings?: unknown[] }, origin: string) => ({
    ...presentSummary(found, origin, paths),
    [documentField]: found.version.document,
    ...(found.warnings ? { warnings: found.warnings } : {}),
  });
  const listQuery = options.listQuery ? ListQuery.extend(options.listQuery.shape) : ListQuery;

  return {
    publish: defineRoute({
      method: 'POST',
      path: base,
      auth: ['session', 'key'],
      service,
      body: options.publishBody,
      response: Full,
      status: 201,
      tool: `${kind}_publish`,
      summary: `Publish a new ${noun} as version 1 (private until a person shares it)`,
      handler: async ({ workspace, body, origin }, deps) =>
        full(await serviceOf(deps).publish(workspace.id, body as z.output<PB>), origin),
    }),
    list: defineRoute({
      method: 'GET',
      path: base,
      auth: ['session', 'key'],
      service,
      query: listQuery,
      response: PublicationList,
      tool: `${kind}_list`,
      summary: `List ${kind}, newest first (archived ones only with includeArchived=true)`,
      description: options.listDescription,
      handler: async ({ workspace, query, origin }, deps) => {
        const page = await serviceOf(deps).publications.list(workspace.id, query as ListInput);
        return {
          data: page.rows.map((item) => presentItem(item, origin, paths)),
          nextCursor: page.nextCursor,
        };
      },
    }),
    get: defineRoute({
      method: 'GET',
      path: `${base}/:slug`,
      auth: ['session', 'key'],
      service,
      params: SlugParams,
      query: VersionQuery,
      response: Full,
      tool: `${kind}_get`,
      summary: `Get a ${noun} with its document; ?version=N for an older version`,
      handler: async ({ workspace, params, query, origin }, deps) =>
        full(await serviceOf(deps).publications.get(workspace.id, params.slug, query.version), origin),
    }),
    update: defineRoute({
      method: 'PUT',
      path: `${base}/:slug`,
      auth: ['session', 'key'],
      service,
      params: SlugParams,
      body: options.updateBody,
      response: Full,
      tool: `${kind}_update`,
      summary: `Publish a new version of a ${noun} (N+1; older versions stay readable)`,
      handler: async ({ workspace, params, body, origin }, deps) =>
        full(await serviceOf(deps).update(workspace.id, params.slug, body as z.output<UB>), origin),
    }),
    versions: defineRoute({
      method: 'GET',
      path: `${base}/:slug/versions`,
      auth: ['session', 'key'],
      service,
      params: SlugParams,
      response: VersionList,
      tool: `${kind}_versions`,
      summary: `Every version of a ${noun}, newest first`,
      handler: async ({ workspace, params }, deps) => ({
        data: await serviceOf(deps).publications.history(workspace.id, params.slug),
      }),
    }),
    archive: defineRoute({
      method: 'POST',
      path: `${base}/:slug/archive`,
      auth: ['session', 'key'],
      service,
      params: SlugParams,
      response: Full,
      tool: `${kind}_archive`,
      summary: `Archive a ${noun}: hidden from lists and its page answers 404, until unarchived`,
      handler: async ({ workspace, params, origin }, deps) =>
        full(await serviceOf(deps).publications.archive(workspace.id, params.slug), origin),
    }),
    unarchive: defineRoute({
      method: 'POST',
      path: `${base}/:slug/unarchive`,
      auth: ['session', 'key'],
      service,
      params: SlugParams,
      response: Full,
      tool: `${kind}_unarchive`,
      summary: `Restore an archived ${noun}`,
      handler: async ({ workspace, params, origin }, deps) =>
        full(await serviceOf(deps).publications.unarchive(workspace.id, params.slug), origin),
    }),
    visibility: defineRoute({
      method: 'POST',
      path: `${base}/:slug/visibility`,
      // session only, and a session has every service: a key is refused before any service check
      auth: 'session',
      tag: service,
      params: SlugParams,
      body: VisibilityBody,
      response: Full,
      summary: `Set who may open a ${noun}'s page: private (you), unlisted (anyone with the link) or public. Session only: a key gets 403`,
      handler: async ({ workspace, params, body, origin }, deps) =>
        full(
          await serviceOf(deps).publications.setVisibility(workspace.id, params.slug, body.visibility),
          origin,
        ),
    }),
  };
}
