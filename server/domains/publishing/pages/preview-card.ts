/**
 * A 1200×630 PNG card (the Open Graph size) for pages without a picture of their own: title, description,
 * tags, drawn as SVG with the shipped fonts and rasterized. Runs in a render worker.
 */
import { rasterize } from '../../../engines/render/rasterize.js';
import { escapeAttribute, escapeText } from '../../../engines/render/svg/sanitize-svg.js';
import { measureText } from '../../../engines/render/text-measure.js';

export type CardInput = {
  title: string;
  description?: string;
  kind: string;
  tags: string[];
  theme?: 'light' | 'dark';
};

const W = 1200;
const H = 630;
const PAD = 80;

export function renderPreviewCard(input: CardInput) {
  const dark = input.theme === 'dark';
  const ink = dark
    ? { bg: '#111113', text: '#edeef0', muted: '#b0b4ba', accent: '#5472e4', chip: '#212225' }
    : { bg: '#ffffff', text: '#1c2024', muted: '#60646c', accent: '#3e63dd', chip: '#f0f0f3' };
  const title = wrapLines(input.title, 60, W - 2 * PAD, 2, 'bold');
  const description = input.description ? wrapLines(input.description, 30, W - 2 * PAD, 3, 'regular') : [];
  const titleTop = 210;
  const descriptionTop = titleTop + title.length * 72 + 24;
  let x = PAD;
  const chips = input.tags.slice(0, 5).map((tag) => {
    const width = measureText(tag, 22) + 32;
    const chip = `<rect x="${x}" y="${H - PAD - 40}" width="${width}" height="40" rx="20" fill="${ink.chip}"/><text x="${x + 16}" y="${H - PAD - 12}" font-size="22" fill="${ink.muted}">${escapeText(tag)}</text>`;
    x += width + 12;
    return chip;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<rect width="${W}" height="${H}" fill="${ink.bg}"/>
<rect x="0" y="0" width="${W}" height="12" fill="${ink.accent}"/>
<text x="${PAD}" y="130" font-family="DejaVu Sans" font-size="24" font-weight="bold" letter-spacing="2" fill="${ink.accent}">${escapeText(input.kind.toUpperCase())}</text>
${title.map((line, i) => `<text x="${PAD}" y="${titleTop + i * 72}" font-family="DejaVu Sans" font-size="60" font-weight="bold" fill="${ink.text}">${escapeText(line)}</text>`).join('\n')}
${description.map((line, i) => `<text x="${PAD}" y="${descriptionTop + i * 42}" font-family="DejaVu Sans" font-size="30" fill="${ink.muted}">${escapeText(line)}</text>`).join('\n')}
${chips.join('\n')}
<text x="${W - PAD}" y="${H - PAD - 12}" text-anchor="end" font-family="DejaVu Sans" font-size="22" fill="${ink.muted}" aria-label="${escapeAttribute('Folio')}">Folio</text>
</svg>`;
  const raster = rasterize(svg, { width: W, height: H }, { scale: 1 });
  return { bytes: raster.png, width: raster.width, height: raster.height };
}

/** Greedy word wrap into at most `max` lines, the last one ellipsized if the text goes on. */
function wrapLines(
  text: string,
  size: number,
  width: number,
  max: number,
  face: 'bold' | 'regular',
): string[] {
  const lines: string[] = [];
  let line = '';
  const words = text.split(/\s+/).filter(Boolean);
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measureText(candidate, size, face) > width) {
      lines.push(line);
      line = word;
      if (lines.length === max) break;
    } else line = candidate;
  }
  if (lines.length < max && line) lines.push(line);
  const used = lines.join(' ').split(/\s+/).length;
  if (used < words.length) {
    let last = lines[lines.length - 1];
    while (last && measureText(`${last}…`, size, face) > width) last = last.slice(0, -1);
    lines[lines.length - 1] = `${last}…`;
  }
  return lines;
}
