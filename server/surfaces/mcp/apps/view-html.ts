// A view's HTML: one self-contained document (its script bundled with esbuild, its style inline) under the
// published pages' CSP: nothing loads from anywhere, inline code runs only by hash, images only as data: URLs.
// The host adds its own sandbox around it; the view never touches Folio's origin or cookie.
import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import { browserScript } from '../../../engines/browser-bundle.js';
import type { AppView } from './app-views.js';

const VIEW_CSS = `
:root { color-scheme: light dark; --text: #1c2024; --muted: #60646c; --line: #e0e1e6; --bg: #fff; --accent: #3e63dd;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) { :root { --text: #edeef0; --muted: #b0b4ba; --line: #363a3f; --bg: #111113; --accent: #9eb1ff; } }
:root[data-theme="light"] { color-scheme: light; } :root[data-theme="dark"] { color-scheme: dark; }
body { margin: 0; background: var(--bg); color: var(--text); }
main { padding: 12px 16px; }
h1 { font-size: 16px; margin: 0 0 8px; }
figure { margin: 0; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
footer { display: flex; justify-content: space-between; gap: 12px; margin-top: 8px; color: var(--muted); font-size: 12px; }
button { font: inherit; color: var(--accent); background: none; border: 0; padding: 0; cursor: pointer; }
.fo-status { color: var(--muted); }
.fo-error { color: #e5484d; }
`;

export const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The pages' CSP, for a document whose only script and style are inline (a meta tag cannot carry `sandbox`). */
export function viewCsp(script: string, style: string): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    'img-src data:',
    "media-src 'none'",
    "connect-src 'none'",
    "font-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

let bundling: Promise<string> | undefined;

/** The view script (the ext-apps App class and view-app.ts), built once (engines/browser-bundle.ts). */
export function viewScript(): Promise<string> {
  bundling ??= browserScript('mcp-view', new URL('./view-app.ts', import.meta.url))
    .then(({ code }) => code.toString('utf8'))
    .catch((error) => {
      bundling = undefined;
      throw error;
    });
  return bundling;
}

export async function viewHtml(view: AppView): Promise<{ html: string; csp: string }> {
  const script = await viewScript();
  const csp = viewCsp(script, VIEW_CSS);
  const config = JSON.stringify({ kind: view.kind, previewTool: view.previewTool ?? null }).replace(
    /</g,
    '\\u003c',
  );
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(view.title)}</title>
<style>${VIEW_CSS}</style>
</head><body>
<main id="fo-view" aria-live="polite"><p class="fo-status">Waiting for the result…</p></main>
<script type="application/json" id="fo-view-config">${config}</script>
<script>${script}</script>
</body></html>`;
  return { html, csp };
}
