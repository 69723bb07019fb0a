// GET /: until the React dashboard lands, a plain page that says the server runs and where to go next.
import escapeHtml from 'escape-html';
import { defineRoute } from '../../http/define-route.js';
import { reply } from '../../http/reply.js';

export const homePage = defineRoute({
  method: 'GET',
  path: '/',
  auth: 'public',
  hidden: true,
  summary: 'Dashboard home',
  handler: ({ viewer, origin }) => {
    const who =
      viewer.kind === 'session'
        ? `Signed in as <b>${escapeHtml(viewer.email)}</b>${viewer.approved ? '' : ' — waiting for approval'}.`
        : 'Not signed in: open the owner sign-in link printed on the console.';
    return reply.html(
      `<!doctype html><meta charset="utf-8"><title>Folio</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d232b}code{background:#eef1f5;padding:.1rem .3rem;border-radius:4px}</style>
<h1>Folio</h1><p>${who}</p>
<p>The API runs at <code>${escapeHtml(origin)}</code>. Agents: read <a href="/llms.txt">/llms.txt</a>
or the <a href="/api/v1/openapi.json">OpenAPI document</a>.</p>`,
      {
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        'Cache-Control': 'no-store',
      },
    );
  },
});

export const homeRoutes = { homePage };
