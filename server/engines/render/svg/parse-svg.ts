/**
 * SVG text → a small element tree, with saxes (a strict, non-validating XML parser). A DOCTYPE is refused
 * outright, so no entity is ever declared, let alone expanded; undeclared entities are a well-formedness
 * error. Bare elements without an <svg> root parse as a fragment in the SVG namespace.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { invalid, tooLarge } from '../render-failure.js';
import { SVG_NS, XLINK_NS } from './svg-allowlist.js';

export type SvgAttribute = { name: string; local: string; prefix: string; uri: string; value: string };
export type SvgElement = {
  type: 'element';
  name: string;
  uri: string;
  attributes: SvgAttribute[];
  children: SvgNode[];
  line: number;
  column: number;
};
export type SvgNode = SvgElement | { type: 'text'; text: string };

export type ParseLimits = { maxElements: number; maxDepth: number };
export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxElements: 20_000, maxDepth: 64 };

const NO_DOCTYPE =
  'DOCTYPE declarations are not allowed: a diagram may not declare entities (entity expansion is refused)';

export function parseSvg(source: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): SvgNode[] {
  try {
    return parse(source, true, limits);
  } catch (error) {
    // An XML declaration is only legal at the start of a document, never in a fragment.
    if (/XML declaration/i.test((error as Error).message)) return parse(source, false, limits);
    throw error;
  }
}

function parse(source: string, fragment: boolean, limits: ParseLimits): SvgNode[] {
  const parser = new SaxesParser({
    xmlns: true,
    fragment,
    position: true,
    additionalNamespaces: { '': SVG_NS, xlink: XLINK_NS },
    resolvePrefix: (prefix: string) => `urn:folio:unbound:${prefix}`,
  });
  const roots: SvgNode[] = [];
  const stack: SvgElement[] = [];
  let count = 0;
  let start = { line: 1, column: 1 };
  const lines = lineStarts(source);
  const append = (node: SvgNode) => (stack.length ? stack[stack.length - 1].children : roots).push(node);

  parser.on('doctype', () => {
    throw refusal(NO_DOCTYPE, parser.line, parser.column);
  });
  parser.on('opentagstart', () => {
    start = positionOf(lines, source.lastIndexOf('<', parser.position - 1));
  });
  parser.on('opentag', (tag) => {
    count += 1;
    if (count > limits.maxElements)
      throw tooLarge(`The SVG has more than ${limits.maxElements.toLocaleString('en')} elements`);
    if (stack.length >= limits.maxDepth)
      throw tooLarge(`The SVG nests elements more than ${limits.maxDepth} deep`);
    const element = toElement(tag as SaxesTagNS, start);
    append(element);
    if (!tag.isSelfClosing) stack.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on('text', (text) => append({ type: 'text', text }));
  parser.on('cdata', (text) => append({ type: 'text', text }));
  parser.on('error', (error) => {
    const message = /doctype/i.test(error.message)
      ? NO_DOCTYPE
      : `The SVG is not well-formed XML: ${error.message}`;
    throw refusal(message, parser.line, parser.column);
  });
  parser.write(source).close();
  return roots;
}

function toElement(tag: SaxesTagNS, at: { line: number; column: number }): SvgElement {
  const attributes = Object.values(tag.attributes).map(({ name, local, prefix, uri, value }) => ({
    name,
    local,
    prefix,
    uri,
    value,
  }));
  return { type: 'element', name: tag.local, uri: tag.uri, attributes, children: [], ...at };
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of a character offset. */
function positionOf(starts: number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low] + 1 };
}

function refusal(message: string, line: number, column: number) {
  return invalid(message, [
    { path: `line ${line}, column ${column + 1}`, message, line, column: column + 1 },
  ]);
}
