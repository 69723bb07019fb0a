/** The artifact components' styles, on the shared page tokens (publishing/pages/page-styles.ts). */
export const ARTIFACT_CSS = `
.fo-doc.fo-doc > * + * { margin-top: 20px; }
.fo-doc.fo-doc > .fo-heading-2 { margin-top: 40px; }
.fo-doc.fo-doc > .fo-heading-3 { margin-top: 28px; }
.fo-heading h1, .fo-heading h2, .fo-heading h3 { margin: 0; line-height: 1.3; letter-spacing: -0.01em; }
.fo-heading h1 { font-size: 30px; letter-spacing: -0.02em; }
.fo-heading h2 { font-size: 21px; }
.fo-heading h3 { font-size: 16px; }
.fo-eyebrow { margin: 0 0 6px; color: var(--accent-text); font-size: 12px; font-weight: 600; letter-spacing: 0.06em; text-transform: uppercase; }
.fo-prose > :first-child { margin-top: 0; }
.fo-prose > :last-child { margin-bottom: 0; }
.fo-prose p, .fo-prose ul, .fo-prose ol { margin: 0 0 12px; }
.fo-prose li + li { margin-top: 4px; }
.fo-prose code { font: 0.88em var(--mono); background: var(--surface-2); border-radius: 4px; padding: 1px 5px; }
.fo-prose table { border-collapse: collapse; font-size: 14px; }
.fo-prose th, .fo-prose td { border-bottom: 1px solid var(--line); padding: 6px 10px; text-align: left; }
.fo-prose blockquote { margin: 0; padding-left: 14px; border-left: 3px solid var(--line-strong); color: var(--muted); }
.fo-callout { display: flex; gap: 12px; padding: 14px 16px; border-radius: var(--radius); background: var(--info-soft); font-size: 14px; }
.fo-callout-mark { flex: none; width: 4px; border-radius: 2px; background: var(--accent); }
.fo-callout-title { font-weight: 650; margin: 0 0 2px; }
.fo-callout.fo-tone-success { background: var(--good-soft); } .fo-callout.fo-tone-success .fo-callout-mark { background: var(--good); }
.fo-callout.fo-tone-warning { background: var(--warn-soft); } .fo-callout.fo-tone-warning .fo-callout-mark { background: var(--warn); }
.fo-callout.fo-tone-danger { background: var(--bad-soft); } .fo-callout.fo-tone-danger .fo-callout-mark { background: var(--bad); }
.fo-metric { background: var(--surface); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
.fo-metric p { margin: 0; }
.fo-metric-label { color: var(--muted); font-size: 13px; }
.fo-metric-value { font-size: 28px; font-weight: 700; letter-spacing: -0.02em; line-height: 1.25; margin-top: 2px !important; font-variant-numeric: tabular-nums; }
.fo-metric-unit { font-size: 15px; font-weight: 500; color: var(--muted); margin-left: 3px; letter-spacing: 0; }
.fo-metric-delta { font-size: 13px; margin-top: 4px !important; font-variant-numeric: tabular-nums; }
.fo-metric-delta span { font-size: 10px; }
.fo-good { color: var(--good); } .fo-bad { color: var(--bad); } .fo-neutral { color: var(--muted); }
.fo-metric-caption { color: var(--faint); font-size: 12px; margin-top: 6px !important; }
.fo-table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 10px; }
.fo-table { width: 100%; border-collapse: collapse; font-size: 14px; font-variant-numeric: tabular-nums; }
.fo-table caption { caption-side: top; text-align: left; font-weight: 600; padding: 12px 14px 4px; }
.fo-table th { font-size: 12px; font-weight: 600; color: var(--muted); text-transform: none; background: var(--surface); border-bottom: 1px solid var(--line); padding: 8px 14px; white-space: nowrap; }
.fo-table td { padding: 9px 14px; border-bottom: 1px solid var(--line); }
.fo-table tbody tr:last-child td { border-bottom: 0; }
.fo-table tbody tr:hover td { background: var(--surface); }
.fo-align-right { text-align: right; } .fo-align-center { text-align: center; } .fo-align-left { text-align: left; }
.fo-sort { all: unset; cursor: pointer; display: inline-flex; align-items: center; gap: 4px; }
.fo-sort:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 3px; }
.fo-sort-icon::after { content: '↕'; opacity: 0.35; font-size: 11px; }
th[aria-sort='ascending'] .fo-sort-icon::after { content: '↑'; opacity: 1; }
th[aria-sort='descending'] .fo-sort-icon::after { content: '↓'; opacity: 1; }
.fo-diagram-svg svg { display: block; width: 100%; height: auto; }
.fo-chart-svg svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
.fo-scroll { overflow-x: auto; }
/* charts and diagrams may be wider than the text: they break out of the column, up to 1040 px */
.fo-doc > .fo-chart, .fo-doc > .fo-diagram { width: min(1040px, 100vw - 32px); margin-left: calc(50% - min(520px, 50vw - 16px)); }
.fo-chart, .fo-diagram { border: 1px solid var(--line); border-radius: 10px; padding: 12px; }
.fo-chart figcaption, .fo-diagram figcaption { margin-top: 6px; padding: 0 4px; }
.fo-image img { display: block; width: 100%; height: auto; border-radius: 10px; background: var(--surface-2); }
.fo-audio { background: var(--surface); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
.fo-audio-title { margin: 0 0 8px; font-weight: 600; }
.fo-audio audio { width: 100%; }
.fo-transcript { margin: 12px 0 0; max-height: 220px; overflow-y: auto; color: var(--muted); line-height: 1.75; }
.fo-transcript span { border-radius: 3px; transition: background-color 0.1s; }
.fo-transcript span.fo-spoken { color: var(--text); }
.fo-transcript span.fo-current { color: var(--text); background: var(--accent-soft); box-shadow: 0 0 0 2px var(--accent-soft); }
.fo-code { margin: 0; }
.fo-code-scroll { display: flex; background: var(--surface); border: 1px solid var(--line); border-radius: 10px; overflow-x: auto; }
.fo-code pre { margin: 0; padding: 14px 16px; font: 13px/1.6 var(--mono); }
.fo-code-gutter { color: var(--faint); text-align: right; user-select: none; border-right: 1px solid var(--line); padding-right: 12px !important; }
.fo-code figcaption { color: var(--muted); font-size: 13px; margin-top: 6px; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type { color: #8e4ec6; }
.hljs-string, .hljs-attr, .hljs-template-tag { color: #218358; }
.hljs-number, .hljs-literal, .hljs-symbol { color: #c2410c; }
.hljs-comment, .hljs-quote { color: var(--faint); font-style: italic; }
.hljs-title, .hljs-section, .hljs-function .hljs-title { color: #3a5bc7; }
.hljs-variable, .hljs-params, .hljs-property { color: var(--text); }
@media (prefers-color-scheme: dark) {
  .hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-type { color: #d19dff; }
  .hljs-string, .hljs-attr, .hljs-template-tag { color: #71d083; }
  .hljs-number, .hljs-literal, .hljs-symbol { color: #ffa057; }
  .hljs-title, .hljs-section, .hljs-function .hljs-title { color: #9eb1ff; }
}
.fo-tablist { display: flex; gap: 4px; border-bottom: 1px solid var(--line); overflow-x: auto; }
.fo-tablist [role='tab'] { all: unset; cursor: pointer; padding: 8px 12px; font-size: 14px; color: var(--muted); border-bottom: 2px solid transparent; margin-bottom: -1px; white-space: nowrap; }
.fo-tablist [role='tab']:hover { color: var(--text); }
.fo-tablist [role='tab'][aria-selected='true'] { color: var(--text); font-weight: 600; border-bottom-color: var(--accent); }
.fo-tablist [role='tab']:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; border-radius: 4px; }
.fo-tabpanel { padding-top: 16px; }
.fo-tabpanel > * + * { margin-top: 16px; }
.fo-accordion { border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
.fo-accordion details + details { border-top: 1px solid var(--line); }
.fo-accordion summary { cursor: pointer; padding: 12px 16px; font-weight: 600; list-style: none; display: flex; justify-content: space-between; align-items: center; }
.fo-accordion summary::-webkit-details-marker { display: none; }
.fo-accordion summary::after { content: '+'; color: var(--muted); font-weight: 400; font-size: 18px; line-height: 1; }
.fo-accordion details[open] summary::after { content: '−'; }
.fo-accordion summary:hover { background: var(--surface); }
.fo-accordion-body { padding: 0 16px 14px; }
.fo-accordion-body > * + * { margin-top: 12px; }
.fo-grid { display: grid; gap: 12px; }
.fo-grid-2 { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.fo-grid-3 { grid-template-columns: repeat(3, minmax(0, 1fr)); }
.fo-grid-4 { grid-template-columns: repeat(4, minmax(0, 1fr)); }
@media (max-width: 640px) { .fo-grid-3, .fo-grid-4 { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
@media (max-width: 420px) { .fo-grid { grid-template-columns: minmax(0, 1fr) !important; } }
.fo-links { list-style: none; padding: 0; margin: 0; border: 1px solid var(--line); border-radius: 10px; }
.fo-links li { padding: 10px 14px; display: flex; flex-direction: column; }
.fo-links li + li { border-top: 1px solid var(--line); }
.fo-links a { font-weight: 600; text-decoration: none; }
.fo-links a:hover { text-decoration: underline; }
.fo-link-note { color: var(--muted); font-size: 13px; }
.fo-buttons { list-style: none; padding: 0; margin: 0; display: flex; gap: 8px; flex-wrap: wrap; }
.fo-button { display: inline-block; padding: 8px 14px; border-radius: 8px; border: 1px solid var(--line-strong); color: var(--text); text-decoration: none; font-size: 14px; font-weight: 600; background: var(--bg); }
.fo-button:hover { background: var(--surface); }
.fo-button.fo-primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
.fo-button.fo-primary:hover { filter: brightness(1.08); }
.fo-timeline { list-style: none; margin: 0; padding: 0 0 0 20px; position: relative; }
.fo-timeline::before { content: ''; position: absolute; left: 5px; top: 6px; bottom: 6px; width: 2px; background: var(--line); border-radius: 1px; }
.fo-timeline li { position: relative; padding-bottom: 16px; }
.fo-timeline li:last-child { padding-bottom: 0; }
.fo-timeline p { margin: 0; }
.fo-timeline-dot { position: absolute; left: -20px; top: 6px; width: 12px; height: 12px; border-radius: 50%; background: var(--bg); border: 2px solid var(--line-strong); }
.fo-tone-success .fo-timeline-dot { border-color: var(--good); background: var(--good); }
.fo-tone-warning .fo-timeline-dot { border-color: var(--warn); background: var(--warn); }
.fo-tone-danger .fo-timeline-dot { border-color: var(--bad); background: var(--bad); }
.fo-timeline-date { color: var(--faint); font-size: 12px; font-variant-numeric: tabular-nums; }
.fo-timeline-title { font-weight: 600; }
.fo-timeline .fo-prose { color: var(--muted); font-size: 14px; margin-top: 2px; }
.fo-image-alt { color: var(--muted); font-style: italic; }
`;
