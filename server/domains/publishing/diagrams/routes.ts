/**
 * The diagrams API and its serve routes (docs/publishing.md). Order matters and is explicit: the fixed words
 * (vocabulary, preview, layout) before /:slug, and /d/:slug.svg and .png before /d/:slug, so "q3.png" is
 * never read as a slug.
 */

import { defineRoute } from '../../../deps.js';
import { reply } from '../../../http/reply.js';
import { serveRoutes } from '../pages/serve-routes.js';
import { publicationRoutes } from '../versions/shared-routes.js';
import { LayoutRequest, LayoutResult } from './layout-schema.js';
import {
  DiagramListQuery,
  DiagramPreview,
  DiagramSvg,
  PageQuery,
  PreviewDiagramBody,
  PreviewQuery,
  PublishDiagramBody,
  UpdateDiagramBody,
  Vocabulary,
} from './schema.js';
import { vocabulary } from './vocabulary.js';

const shared = publicationRoutes({
  kind: 'diagrams',
  noun: 'diagram',
  service: 'diagrams',
  paths: { prefix: '/d', svg: true, png: true },
  documentField: 'svg',
  documentSchema: DiagramSvg,
  publishBody: PublishDiagramBody,
  updateBody: UpdateDiagramBody,
  listQuery: DiagramListQuery,
  listDescription:
    '`q` (title, description, tags), `tag` (repeat or comma list; all must match), `kind` (flowchart, sequence, architecture, state, entity-relationship, timeline, ...), `includeArchived=true`, `limit` 1-200, `cursor`.',
  serviceOf: (deps) => deps.diagrams,
});

export const listDiagrams = shared.list;
export const publishDiagram = shared.publish;

export const diagramVocabulary = defineRoute({
  method: 'GET',
  path: '/api/v1/diagrams/vocabulary',
  auth: ['session', 'key'],
  service: 'diagrams',
  response: Vocabulary,
  tool: 'diagrams_vocabulary',
  summary: 'The classes, modifiers and typography roles diagrams are written with, each with an example',
  handler: () => vocabulary(),
});

export const previewDiagram = defineRoute({
  method: 'POST',
  path: '/api/v1/diagrams/preview',
  auth: ['session', 'key'],
  service: 'diagrams',
  body: PreviewDiagramBody,
  query: PreviewQuery,
  response: DiagramPreview,
  tool: 'diagrams_preview',
  summary: 'Check an SVG fragment and render it (themed SVG and PNG) without publishing',
  description:
    'Answers JSON with the checked `document`, the themed `svg`, `png` as a data URL and `warnings` (unknown classes, dropped attributes, each with line and column); `?format=png` answers the PNG bytes instead. Scripts, event handlers, foreignObject, external references and DOCTYPEs are refused with 400 naming each problem.',
  handler: async ({ body, query }, { diagrams }) => {
    const out = await diagrams.preview(body);
    const png = Buffer.from(out.png.bytes);
    if (query.format === 'png') return reply.bytes('image/png', png, { 'Cache-Control': 'no-store' });
    return {
      document: out.document,
      svg: out.svg,
      width: out.box.width,
      height: out.box.height,
      png: `data:image/png;base64,${png.toString('base64')}`,
      pngWidth: out.png.width,
      pngHeight: out.png.height,
      warnings: out.warnings,
    };
  },
});

export const layoutDiagram = defineRoute({
  method: 'POST',
  path: '/api/v1/diagrams/layout',
  auth: ['session', 'key'],
  service: 'diagrams',
  body: LayoutRequest,
  response: LayoutResult,
  tool: 'diagrams_layout',
  summary:
    'Lay out a node/edge graph with ELK (positions and edge routes; with format "svg" a ready diagram). Writes nothing',
  description:
    '`nodes` [{ id, label?, sublabel?, shape? (node|terminal|decision|store|actor|state|note), tone?, parent? (a group id), ports? [{ id, side }] }], `edges` [{ from, to, fromPort?, toPort?, label?, tone?, line? (solid|dashed|dotted), head?, tail? }], `groups` [{ id, label?, parent? }] (nest), `direction` (right|down|left|up), `edgeRouting` (orthogonal|polyline|splines), `spacing` { node, layer }, `title`, `subtitle`, `format` ("json" | "svg"). At most 2,000 nodes and 5,000 edges (413 past that).',
  handler: ({ body }, { diagrams }) => diagrams.layout(body),
});

export const getDiagram = shared.get;
export const updateDiagram = shared.update;
export const diagramVersions = shared.versions;
export const archiveDiagram = shared.archive;
export const unarchiveDiagram = shared.unarchive;
export const setDiagramVisibility = shared.visibility;

const served = serveRoutes('d', PageQuery, {
  diagramSvg: {
    form: 'svg',
    summary: 'A diagram as SVG (themed light and dark by prefers-color-scheme)',
    render: ({ diagrams }, r) => diagrams.svg(r.slug, r.viewer, r.version),
  },
  diagramPng: {
    form: 'png',
    summary: 'A diagram as PNG (?theme=dark for the dark theme)',
    render: ({ diagrams }, r) => diagrams.png(r.slug, r.viewer, r.version, r.theme),
  },
  diagramPage: {
    form: 'page',
    summary: 'A diagram page',
    render: ({ diagrams }, r) => diagrams.page(r.slug, r.viewer, r.version, r.origin),
  },
});

/** Mount order: fixed words before /:slug; .svg and .png before the page. */
export const diagramRoutes = {
  listDiagrams,
  publishDiagram,
  diagramVocabulary,
  previewDiagram,
  layoutDiagram,
  getDiagram,
  updateDiagram,
  diagramVersions,
  archiveDiagram,
  unarchiveDiagram,
  setDiagramVisibility,
  ...served,
};
