/** The plain page for `/` without a session (README.md, "The dashboard and the desktop app"): how to sign in. */
import escapeHtml from 'escape-html';

export function signInPage(origin: string, notice?: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Folio: sign in</title>
<style>
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f9f9fb;color:#1c2024}
main{max-width:28rem;margin:2rem;padding:2rem;background:#fff;border:1px solid #e8e8ec;border-radius:8px}
h1{font-size:20px;margin:0 0 .75rem}p{margin:.5rem 0;color:#60646c}code{background:#f0f0f3;padding:.1rem .3rem;border-radius:4px;color:#1c2024}
a{color:#3a5bc7}
@media (prefers-color-scheme:dark){body{background:#111113;color:#edeef0}main{background:#18191b;border-color:#2e3135}p{color:#b0b4ba}code{background:#212225;color:#edeef0}a{color:#9eb1ff}}
</style>
<main><h1>Sign in to Folio</h1>
${notice ? `<p>${escapeHtml(notice)}</p>` : ''}
<p>The owner signs in with the one-time link the desktop app opens, or the <b>Owner sign-in</b> link printed on the console when Folio starts.</p>
<p>Invited people ask for a link with <code>POST /auth/sign-in</code>; the owner passes it on.</p>
<p>Agents need no sign-in: they use an API key at <code>${escapeHtml(origin)}</code>. Read <a href="/llms.txt">/llms.txt</a>.</p>
</main></html>`;
}
