/**
 * The artifacts API and its page (docs/publishing.md). Order is explicit: /components and /validate before
 * /:slug, and /a/:slug.png (the link preview card) before /a/:slug.
 */

import { defineRoute } from '../../../deps.js';
import { MAX_DOCUMENT_DEPTH } from '../../../engines/render/document-depth.js';
import { servicesOf } from '../../../http/viewer.js';
import { actingAsCaller } from '../embeds/acting-as-caller.js';
import { serveRoutes } from '../pages/serve-routes.js';
import { publicationRoutes } from '../versions/shared-routes.js';
import {
  ArtifactDocument,
  ArtifactPageQuery,
  ComponentCatalog,
  PublishArtifactBody,
  UpdateArtifactBody,
  ValidateArtifactBody,
  ValidationResult,
} from './schema.js';

const shared = publicationRoutes({
  kind: 'artifacts',
  noun: 'artifact',
  service: 'artifacts',
  paths: { prefix: '/a', svg: false, png: false },
  documentField: 'document',
  documentSchema: ArtifactDocument,
  publishBody: PublishArtifactBody,
  updateBody: UpdateArtifactBody,
  listDescription:
    '`q` (title, description, tags), `tag` (repeat or comma list; all must match), `includeArchived=true`, `limit` 1-200, `cursor`.',
  serviceOf: (deps) => deps.artifacts,
});

// Publishing and new versions run with the caller's services: a document embeds only what the key may read
// (embed-scope.ts), so an artifacts-only key cannot put a chart or diagram on a page.
export const listArtifacts = shared.list;
export const publishArtifact = {
  ...shared.publish,
  handler: actingAsCaller('artifacts', shared.publish.handler),
};

export const artifactComponents = defineRoute({
  method: 'GET',
  path: '/api/v1/artifacts/components',
  auth: ['session', 'key'],
  service: 'artifacts',
  response: ComponentCatalog,
  tool: 'artifacts_components',
  summary:
    'The 15 components an artifact is built from, each as JSON Schema with a description and an example',
  handler: (_input, { artifacts }) => artifacts.catalog(),
});

export const validateArtifact = defineRoute({
  method: 'POST',
  path: '/api/v1/artifacts/validate',
  auth: ['session', 'key'],
  service: 'artifacts',
  body: ValidateArtifactBody,
  response: ValidationResult,
  tool: 'artifacts_validate',
  summary: 'Check an artifact document without publishing: every problem with its JSON pointer',
  description: `Answers 200 \`{ valid, issues: [{ path, message }] }\`: unknown components (with the nearest name), properties (with the allowed ones), values (with the expected ones), references to charts, diagrams, assets or transcripts this workspace does not have, and those the key's services do not cover (a chart by slug needs \`charts\`, a diagram \`diagrams\`, images, audio and chart data \`assets\`, transcripts \`transcription\`; publishing them answers 403). Past the bounds (500 components, 5,000 table rows, components nested 6 deep) it answers 413; JSON nested more than ${MAX_DOCUMENT_DEPTH} levels deep answers 400.`,
  handler: async ({ workspace, viewer, body }, { artifacts }) => {
    const { issues } = await artifacts.validate(workspace.id, body.document, servicesOf(viewer));
    return { valid: issues.length === 0, issues: issues.map(({ path, message }) => ({ path, message })) };
  },
});

export const getArtifact = shared.get;
export const updateArtifact = {
  ...shared.update,
  handler: actingAsCaller('artifacts', shared.update.handler),
};
export const artifactVersions = shared.versions;
export const archiveArtifact = shared.archive;
export const unarchiveArtifact = shared.unarchive;
export const setArtifactVisibility = shared.visibility;

const served = serveRoutes('a', ArtifactPageQuery, {
  artifactCard: {
    form: 'png',
    summary: "An artifact's link preview card (1200×630 PNG)",
    render: ({ artifacts }, r) => artifacts.card(r.slug, r.viewer, r.version),
  },
  artifactPage: {
    form: 'page',
    summary: 'An artifact page',
    render: ({ artifacts }, r) => artifacts.page(r.slug, r.viewer, r.version, r.origin),
  },
});

/** Mount order: fixed words before /:slug; the card before the page. */
export const artifactRoutes = {
  listArtifacts,
  publishArtifact,
  artifactComponents,
  validateArtifact,
  getArtifact,
  updateArtifact,
  artifactVersions,
  archiveArtifact,
  unarchiveArtifact,
  setArtifactVisibility,
  ...served,
};
