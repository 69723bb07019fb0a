/**
 * Diagrams: publishing rules for SVG documents in the vocabulary. Checking and every output (themed SVG,
 * PNG, page) run in the render pool; outputs of one version are cached and shared (render-cache.ts).
 */

import type { RenderCache } from '../../../engines/render/render-cache.js';
import type { RenderPool } from '../../../engines/render/render-pool.js';
import { payloadTooLarge } from '../../../http/errors.js';
import type { Viewer } from '../../../http/viewer.js';
import type { Store } from '../../../store/types.js';
import { pageAddress, pageMeta } from '../pages/page-parts.js';
import { rendered } from '../pages/serve-rendered.js';
import { createPublications, type Found } from '../versions/publication-model.js';
import { LAYOUT_LIMITS, type LayoutRequest, type LayoutResult } from './layout-schema.js';
import { renderDiagramPage } from './page.js';
import type { DiagramRenderInput, DiagramRenderOutput } from './render-diagram.js';
import type { PublishDiagramBody, UpdateDiagramBody } from './schema.js';

export type DiagramServiceDeps = {
  store: Store;
  pool: RenderPool;
  cache: RenderCache;
  workspaces: { get(id: string): Promise<{ ownerId: string } | undefined> };
};

export function createDiagramService({ store, pool, cache, workspaces }: DiagramServiceDeps) {
  const publications = createPublications({ store, kind: 'diagrams', workspaces });
  const render = (input: DiagramRenderInput) => pool.run<DiagramRenderOutput>('diagrams.render', input);

  /** Checks the SVG in a worker; what is stored is the checked document, never the submitted text. */
  async function checked(svg: string) {
    const out = await render({ svg });
    return {
      document: out.document,
      derived: { width: out.box.width, height: out.box.height },
      warnings: out.warnings,
    };
  }

  async function publish(workspaceId: string, body: PublishDiagramBody) {
    const { svg, ...meta } = body;
    const check = await checked(svg);
    const found = await publications.create(workspaceId, {
      ...meta,
      document: check.document,
      derived: check.derived,
    });
    return { ...found, warnings: check.warnings };
  }

  async function update(workspaceId: string, slug: string, body: UpdateDiagramBody) {
    const { svg, ...meta } = body;
    const check = await checked(svg);
    const found = await publications.update(workspaceId, slug, {
      ...meta,
      document: check.document,
      derived: check.derived,
    });
    return { ...found, warnings: check.warnings };
  }

  async function preview(input: { svg: string; title?: string; theme: 'light' | 'dark'; scale: number }) {
    const out = await render({
      svg: input.svg,
      title: input.title,
      svgTheme: 'auto',
      png: { theme: input.theme, scale: input.scale },
    });
    return out as Required<Pick<DiagramRenderOutput, 'svg' | 'png'>> & DiagramRenderOutput;
  }

  async function layout(request: LayoutRequest): Promise<LayoutResult> {
    for (const [what, limit] of Object.entries(LAYOUT_LIMITS)) {
      const count = request[what as keyof typeof LAYOUT_LIMITS].length;
      if (count > limit)
        throw payloadTooLarge(`The graph has ${count} ${what}; layout takes at most ${limit}`);
    }
    return pool.run<LayoutResult>('diagrams.layout', request);
  }

  const keyOf = ({ item, version }: Found, output: string) =>
    `diagrams:${item.id}@${version.version}:${output}`;
  const document = (found: Found) => String(found.version.document);

  /** The themed SVG of a version, light and dark by prefers-color-scheme, and the styles in it. */
  const svgOf = (found: Found) =>
    cache.get(keyOf(found, 'svg'), async () => {
      const out = await render({ svg: document(found), title: found.version.title, svgTheme: 'auto' });
      return { ...rendered(out.svg!, 'image/svg+xml; charset=utf-8'), styles: out.styles ?? [] };
    });

  const pngOf = (found: Found, theme: 'light' | 'dark') =>
    cache.get(keyOf(found, `png-${theme}`), async () => {
      const out = await render({
        svg: document(found),
        title: found.version.title,
        png: { theme, scale: 2, fit: true },
      });
      return {
        ...rendered(Buffer.from(out.png!.bytes), 'image/png'),
        width: out.png!.width,
        height: out.png!.height,
      };
    });

  async function pageOf(found: Found, origin: string) {
    const key = keyOf(found, `page ${found.item.visibility} ${origin}`);
    return cache.get(key, async () => {
      const svg = await svgOf(found);
      const png = await pngOf(found, 'light');
      const address = pageAddress(found, origin, 'd');
      const page = renderDiagramPage(
        found,
        { svg: svg.body.toString(), styles: svg.styles as string[] },
        pageMeta(found, address, png),
        address,
      );
      return { ...rendered(page.html, 'text/html; charset=utf-8'), csp: page.csp };
    });
  }

  /** For an artifact that shows this diagram: the latest version's themed SVG, in the same workspace only. */
  async function embed(workspaceId: string, slug: string) {
    const item = await publications.latestOf(workspaceId, slug);
    if (!item) return undefined;
    const found = await publications.get(workspaceId, slug);
    const svg = await svgOf(found);
    return {
      svg: svg.body.toString(),
      styles: svg.styles as string[],
      label: found.version.title,
      version: item.version,
      width: found.version.derived?.width as number | undefined,
    };
  }

  return {
    publications,
    publish,
    update,
    /** Checks an SVG as publishing does: the document to store (never the text as sent) and what it derived. */
    check: checked,
    preview,
    layout,
    page: async (slug: string, viewer: Viewer, version: number | undefined, origin: string) => {
      const found = await publications.forPage(slug, viewer, version);
      return { found, output: await pageOf(found, origin) };
    },
    svg: async (slug: string, viewer: Viewer, version?: number) => {
      const found = await publications.forPage(slug, viewer, version);
      return { found, output: await svgOf(found) };
    },
    png: async (slug: string, viewer: Viewer, version: number | undefined, theme: 'light' | 'dark') => {
      const found = await publications.forPage(slug, viewer, version);
      return { found, output: await pngOf(found, theme) };
    },
    embed,
  };
}

export type DiagramService = ReturnType<typeof createDiagramService>;
