/**
 * The raw serve routes of the three kinds, through one handler: a kind names what it renders at /<letter>/:slug.svg,
 * /<letter>/:slug.png and /<letter>/:slug, and every answer leaves the same way (serve-rendered.ts): cached by the
 * item's visibility, an SVG with its own CSP, a page with the CSP its render made, images embeddable by any site.
 */
import type { z } from 'zod';
import { defineRawRoute, type RouteDeps } from '../../../deps.js';
import type { Rendered } from '../../../engines/render/render-cache.js';
import type { Viewer } from '../../../http/viewer.js';
import { SlugParams } from '../schema.js';
import type { Found } from '../versions/publication-model.js';
import { type ServeOptions, serveRendered } from './serve-rendered.js';

export type ServeRequest = {
  slug: string;
  viewer: Viewer;
  version?: number;
  /** ?theme= where the kind's query has it (charts, diagrams' PNG), else light. */
  theme: 'light' | 'dark';
  origin: string;
};

type ServeQuery = { version?: number; theme?: 'light' | 'dark' };

/** Opened directly, an SVG is its own document: nothing in it may run or load. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const FORMS: Record<
  'svg' | 'png' | 'page',
  { suffix: string; headers(output: Rendered): Omit<ServeOptions, 'visibility'> }
> = {
  svg: { suffix: '.svg', headers: () => ({ csp: SVG_CSP, embeddable: true }) },
  png: { suffix: '.png', headers: () => ({ embeddable: true }) },
  page: { suffix: '', headers: (output) => ({ csp: output.csp as string }) },
};

export type ServeForm = {
  form: keyof typeof FORMS;
  summary: string;
  render(deps: RouteDeps, request: ServeRequest): Promise<{ found: Found; output: Rendered }>;
};

/**
 * A kind's serve routes, named as the route table will name them (`diagramSvg` ...), in mount order: `.svg` and
 * `.png` before the page, whose `/:slug` would otherwise take them.
 */
export function serveRoutes<Name extends string>(
  letter: 'd' | 'c' | 'a',
  query: z.ZodType<ServeQuery>,
  forms: Record<Name, ServeForm>,
) {
  const entries = Object.entries<ServeForm>(forms).map(([name, form]) => [
    name,
    serveRoute(letter, query, form),
  ]);
  return Object.fromEntries(entries) as Record<Name, ReturnType<typeof serveRoute>>;
}

function serveRoute(
  letter: 'd' | 'c' | 'a',
  query: z.ZodType<ServeQuery>,
  { form, summary, render }: ServeForm,
) {
  const { suffix, headers } = FORMS[form];
  return defineRawRoute({
    method: 'GET',
    path: `/${letter}/:slug${suffix}`,
    auth: 'public',
    params: SlugParams,
    query,
    hidden: true,
    summary,
    handler: async ({ params, query: { version, theme = 'light' }, viewer, origin, ctx }, deps) => {
      const { found, output } = await render(deps, { slug: params.slug, viewer, version, theme, origin });
      return serveRendered(ctx, output, { visibility: found.item.visibility, ...headers(output) });
    },
  });
}
