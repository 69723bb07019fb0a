/**
 * The look every published page shares: tokens (a 4 px grid, a 12–32 px type scale, Radix slate/indigo
 * steps) switched by prefers-color-scheme, the page frame (header with title and meta, footer), figures.
 */
import { FONT_STACK, MONO_STACK } from '../../../engines/render/fonts.js';

export const BASE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --surface: #f9f9fb; --surface-2: #f0f0f3; --line: #e0e1e6; --line-strong: #cdced6;
  --text: #1c2024; --muted: #60646c; --faint: #8b8d98;
  --accent: #3e63dd; --accent-text: #3a5bc7; --accent-soft: #edf2fe; --on-accent: #ffffff;
  --good: #218358; --good-soft: #e6f6eb; --bad: #ce2c31; --bad-soft: #feebec; --warn: #ab6400; --warn-soft: #fff7c2;
  --info-soft: #edf2fe; --shadow: 0 1px 2px rgba(16, 24, 40, 0.06), 0 1px 3px rgba(16, 24, 40, 0.08);
  --radius: 8px; --font: ${FONT_STACK}; --mono: ${MONO_STACK};
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111113; --surface: #18191b; --surface-2: #212225; --line: #2e3135; --line-strong: #43484e;
    --text: #edeef0; --muted: #b0b4ba; --faint: #777b84;
    --accent: #5472e4; --accent-text: #9eb1ff; --accent-soft: #182449; --on-accent: #ffffff;
    --good: #3dd68c; --good-soft: #132d21; --bad: #ff9592; --bad-soft: #3b1219; --warn: #ffca16; --warn-soft: #302008;
    --info-soft: #182449; --shadow: 0 0 0 1px var(--line);
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.6 var(--font); -webkit-font-smoothing: antialiased; }
a { color: var(--accent-text); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 4px; }
.fo-page { max-width: 760px; margin: 0 auto; padding: 48px 24px 32px; }
.fo-page-wide { max-width: 1120px; }
.fo-page-header { margin-bottom: 28px; }
.fo-page-title { font-size: 28px; line-height: 1.25; letter-spacing: -0.015em; margin: 0 0 8px; font-weight: 700; }
.fo-page-description { color: var(--muted); font-size: 16px; margin: 0; max-width: 62ch; }
.fo-page-meta { color: var(--faint); font-size: 12px; margin: 12px 0 0; display: flex; gap: 12px; flex-wrap: wrap; }
.fo-tag { background: var(--surface-2); color: var(--muted); border-radius: 999px; padding: 1px 8px; }
.fo-page-footer { margin-top: 48px; padding-top: 16px; border-top: 1px solid var(--line); color: var(--faint); font-size: 12px; display: flex; justify-content: space-between; gap: 12px; flex-wrap: wrap; }
.fo-page-footer a { color: var(--faint); }
.fo-figure { margin: 0; }
.fo-figure figcaption { color: var(--muted); font-size: 13px; margin-top: 8px; }
.fo-canvas { background: var(--bg); border: 1px solid var(--line); border-radius: 12px; padding: 16px; overflow: auto; }
.fo-canvas svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
.fo-only-dark { display: none; }
@media (prefers-color-scheme: dark) { .fo-only-dark { display: block; } .fo-only-light { display: none; } }
.fo-missing { color: var(--muted); background: var(--surface); border: 1px dashed var(--line-strong); border-radius: var(--radius); padding: 16px; margin: 0; font-size: 14px; }
@media (max-width: 600px) { .fo-page { padding: 28px 16px 24px; } .fo-page-title { font-size: 24px; } }
`;
