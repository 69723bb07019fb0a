/**
 * What a chart draws, read from vega's SVG: the items inside each `role-mark` group (the data marks; axes,
 * legends and titles have roles of their own), and the size of the first view's plot area (its background).
 */
import { SaxesParser } from 'saxes';

export type DrawnMarks = { items: number; marks: number; plot?: { width: number; height: number } };

export function drawnMarks(svg: string): DrawnMarks {
  const parser = new SaxesParser();
  const stack: boolean[] = []; // per open element: is it a role-mark group
  const drawn: DrawnMarks = { items: 0, marks: 0 };
  parser.on('opentag', (tag) => {
    const classes = String(tag.attributes.class ?? '').split(/\s+/);
    if (stack.at(-1)) drawn.items++;
    const isMark = tag.name === 'g' && classes.includes('role-mark');
    if (isMark) drawn.marks++;
    if (!drawn.plot && tag.name === 'path' && classes.includes('background'))
      drawn.plot = sizeOf(String(tag.attributes.d));
    stack.push(isMark);
  });
  parser.on('closetag', () => stack.pop());
  parser.write(svg).close();
  return drawn;
}

/** A view background is `M0,0h<width>v<height>h-<width>Z` (or starts at 0.5,0.5 with a stroke). */
function sizeOf(d: string): { width: number; height: number } | undefined {
  const size = /^M[\d.]+,[\d.]+h([\d.]+)v([\d.]+)h/.exec(d);
  return size ? { width: Number(size[1]), height: Number(size[2]) } : undefined;
}
