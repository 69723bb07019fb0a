/** How big a laid-out node must be for its label, per shape; labels wrap at words past a comfortable width. */
import { measureText } from '../../../engines/render/text-measure.js';
import type { LayoutNode } from './layout-schema.js';

export const LABEL_SIZE = 13;
export const SUBLABEL_SIZE = 11;
export const LINE_HEIGHT = 17;
const MAX_TEXT_WIDTH = 220;
const PAD_X = 20;

export type SizedNode = { width: number; height: number; lines: string[]; sublabel?: string };

export function sizeNode(node: LayoutNode): SizedNode {
  const lines = wrap(node.label ?? node.id, LABEL_SIZE, MAX_TEXT_WIDTH);
  const sublabel = node.sublabel;
  const textWidth = Math.max(
    ...lines.map((l) => measureText(l, LABEL_SIZE)),
    sublabel ? measureText(sublabel, SUBLABEL_SIZE) : 0,
  );
  let width = Math.max(96, Math.ceil(textWidth + 2 * PAD_X));
  let height = 22 + lines.length * LINE_HEIGHT + (sublabel ? 15 : 0);
  if (node.shape === 'decision') [width, height] = [Math.ceil(width * 1.45), Math.ceil(height * 1.6)];
  if (node.shape === 'terminal') width += height / 2;
  if (node.shape === 'store') height += 16;
  return { width: node.width ?? width, height: node.height ?? height, lines, ...(sublabel && { sublabel }) };
}

/** Greedy word wrap; a single word longer than the width stays on its own line. At most 3 lines. */
export function wrap(text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measureText(candidate, size) > maxWidth) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  if (lines.length <= 3) return lines;
  return [...lines.slice(0, 2), `${lines.slice(2).join(' ').slice(0, 40)}…`];
}
