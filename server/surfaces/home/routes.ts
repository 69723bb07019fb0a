// GET / and the dashboard's client-side sections: the React dashboard for a signed-in
// session, the plain sign-in prompt without one; /_app/* serves the built files, compressed and immutable.
import type { Context } from 'koa';
import { z } from 'zod';
import { defineRawRoute, type RouteDeps } from '../../deps.js';
import { notFound } from '../../http/errors.js';
import { reply } from '../../http/reply.js';
import type { Viewer } from '../../http/viewer.js';
import { builtDashboard, type DashboardFile, pickEncoding } from './dashboard-files.js';
import { DASHBOARD_SECTIONS } from './dashboard-paths.js';
import { signInPage } from './sign-in-page.js';

const fromDisk = builtDashboard();

/** Scripts and styles only from this origin; previews of published pages only in sandboxed frames. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function send(ctx: Context, file: DashboardFile, headers: Record<string, string>) {
  const { encoding, body } = pickEncoding(file, (encoding) => ctx.acceptsEncodings(encoding));
  return reply.bytes(file.type, body, {
    ...headers,
    Vary: 'Accept-Encoding',
    ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
  });
}

async function dashboardPage(
  { viewer, origin, ctx }: { viewer: Viewer; origin: string; ctx: Context },
  { host }: RouteDeps,
) {
  if (viewer.kind !== 'session')
    return reply.html(signInPage(origin), {
      ...PAGE_HEADERS,
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    });
  const source = host.dashboard ?? fromDisk;
  const page = await source.page(ctx.url);
  if (!page)
    return reply.html(
      signInPage(
        origin,
        'You are signed in, but the dashboard is not built yet: run `npm run build:dashboard` (npm start and npm run serve do it).',
      ),
      PAGE_HEADERS,
    );
  return send(ctx, page, {
    ...PAGE_HEADERS,
    Vary: 'Cookie',
    ...(source.devServer ? {} : { 'Content-Security-Policy': DASHBOARD_CSP }),
  });
}

export const homePage = defineRawRoute({
  method: 'GET',
  path: '/',
  auth: 'public',
  hidden: true,
  summary: 'The dashboard for a signed-in session; the sign-in prompt otherwise',
  handler: dashboardPage,
});

/** One route per section, so `/assets/ast_123` opened directly (or reloaded) gets the dashboard too. */
export const dashboardSections = Object.fromEntries(
  DASHBOARD_SECTIONS.map((section) => [
    `dashboard_${section}`,
    defineRawRoute({
      method: 'GET',
      path: `/${section}{/*rest}`,
      auth: 'public',
      hidden: true,
      summary: `Dashboard: ${section}`,
      handler: dashboardPage,
    }),
  ]),
);

const AssetParams = z.object({ file: z.string().regex(/^[\w.-]+$/, 'not a dashboard file') });

export const dashboardAsset = defineRawRoute({
  method: 'GET',
  path: '/_app/:file',
  auth: 'public',
  hidden: true,
  params: AssetParams,
  summary: 'Built dashboard files (content-hashed, immutable)',
  handler: ({ params, ctx }, { host }) => {
    const file = (host.dashboard ?? fromDisk).asset(`/_app/${params.file}`);
    if (!file) throw notFound('Dashboard file');
    return send(ctx, file, {
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
  },
});

export const dashboardFavicon = defineRawRoute({
  method: 'GET',
  path: '/favicon.svg',
  auth: 'public',
  hidden: true,
  summary: 'The dashboard icon',
  handler: ({ ctx }, { host }) => {
    const file = (host.dashboard ?? fromDisk).asset('/favicon.svg');
    if (!file) throw notFound('Icon');
    return send(ctx, file, { 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
  },
});

export const homeRoutes = { homePage, ...dashboardSections, dashboardAsset, dashboardFavicon };
