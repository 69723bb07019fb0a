/**
 * The diagram sanitizer: an allow-list over the parsed tree (parse-svg.ts), re-serialized from that tree so
 * what is served is exactly what was checked. Active or loading content refuses the whole document (400,
 * each problem with its position); unknown but harmless content is dropped with a warning; classes outside
 * the vocabulary are kept and warned about.
 */
import { closest } from 'fastest-levenshtein';
import { type Issue, invalid } from '../render-failure.js';
import {
  DEFAULT_PARSE_LIMITS,
  type ParseLimits,
  parseSvg,
  type SvgElement,
  type SvgNode,
} from './parse-svg.js';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_ELEMENTS,
  FORBIDDEN_ELEMENTS,
  FRAGMENT_HREF_ELEMENTS,
  LINK_SCHEMES,
  SVG_NS,
  URL_ATTRIBUTES,
  XLINK_NS,
} from './svg-allowlist.js';
import { checkAttributeValue, checkStyleAttribute, checkStyleSheet, isFragmentUrl } from './svg-css.js';

export type Box = { x: number; y: number; width: number; height: number };
export type SanitizedSvg = {
  /** The checked children of the root, serialized. */
  content: string;
  /** From the root's viewBox, or its width and height; undefined for bare elements. */
  viewBox?: Box;
  warnings: Issue[];
  /** The CSS of each <style> kept, as written out (pages allow them by hash). */
  styles: string[];
};

const RESERVED_ID_PREFIX = 'fo-';

export type SanitizeOptions = {
  limits?: ParseLimits;
  /** Classes to accept silently; others are warned about with the nearest known name. No warnings without it. */
  knownClasses?: Set<string>;
};

export function sanitizeSvg(
  source: string,
  { limits = DEFAULT_PARSE_LIMITS, knownClasses }: SanitizeOptions = {},
): SanitizedSvg {
  const roots = parseSvg(source, limits);
  const elements = roots.filter((n): n is SvgElement => n.type === 'element');
  const root =
    elements.length === 1 && elements[0].name === 'svg' && elements[0].uri === SVG_NS
      ? elements[0]
      : undefined;
  const body = root ? root.children : roots;
  const state: Walk = {
    problems: [],
    warnings: [],
    styleClasses: new Set(),
    styles: new Map(),
    knownClasses,
  };
  collectStyles(body, state);
  if (root) for (const a of root.attributes) checkAttribute(root, a, state, '/svg'); // reports only: the root is rebuilt
  const content = body.map((node) => serialize(node, state, '')).join('');
  if (state.problems.length)
    throw invalid(
      `The SVG has content a diagram may not have: ${state.problems.map((p) => p.message).join('; ')}`,
      state.problems,
    );
  return {
    content,
    viewBox: root && rootBox(root, state),
    warnings: state.warnings,
    styles: [...state.styles.values()],
  };
}

type Walk = {
  problems: Issue[];
  warnings: Issue[];
  styleClasses: Set<string>;
  styles: Map<SvgElement, string>;
  knownClasses?: Set<string>;
};

const at = (element: SvgElement, path: string) => ({ path, line: element.line, column: element.column });

/** <style> elements first, so classes they define are not reported as unknown. */
function collectStyles(nodes: SvgNode[], state: Walk, path = ''): void {
  for (const node of nodes) {
    if (node.type !== 'element' || node.uri !== SVG_NS) continue;
    if (node.name === 'style') {
      const text = node.children.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const checked = checkStyleSheet(text);
      for (const finding of checked.findings)
        report(state, finding.kind, node, `${path}/style`, finding.message);
      for (const name of checked.classes) state.styleClasses.add(name);
      state.styles.set(node, checked.css);
    } else collectStyles(node.children, state, `${path}/${node.name}`);
  }
}

function report(
  state: Walk,
  kind: 'forbidden' | 'dropped',
  element: SvgElement,
  path: string,
  message: string,
) {
  (kind === 'forbidden' ? state.problems : state.warnings).push({
    ...at(element, path),
    message: `<${element.name}> at line ${element.line}, column ${element.column}: ${message}`,
  });
}

function serialize(node: SvgNode, state: Walk, parentPath: string): string {
  if (node.type === 'text') return escapeText(node.text);
  const path = `${parentPath}/${node.name}`;
  if (node.uri !== SVG_NS) {
    report(state, 'dropped', node, path, 'not an SVG element; removed with its content');
    return '';
  }
  const forbidden = FORBIDDEN_ELEMENTS[node.name];
  if (forbidden) {
    report(state, 'forbidden', node, path, forbidden);
    return '';
  }
  if (!ALLOWED_ELEMENTS.has(node.name)) {
    report(state, 'dropped', node, path, 'not a supported SVG element; removed with its content');
    return '';
  }
  const attributes = node.attributes.map((a) => checkAttribute(node, a, state, path)).join('');
  const children =
    node.name === 'style'
      ? escapeText(state.styles.get(node) ?? '')
      : node.children.map((child) => serialize(child, state, path)).join('');
  return children ? `<${node.name}${attributes}>${children}</${node.name}>` : `<${node.name}${attributes}/>`;
}

function checkAttribute(
  element: SvgElement,
  attr: SvgElement['attributes'][number],
  state: Walk,
  path: string,
) {
  const { local, prefix, uri, value } = attr;
  const name = prefix === 'xml' ? attr.name : local;
  if (prefix === 'xmlns' || attr.name === 'xmlns') return ''; // namespaces are written by the serializer
  if (local.toLowerCase().startsWith('on')) {
    report(
      state,
      'forbidden',
      element,
      path,
      `event handler ${attr.name} is not allowed: diagrams cannot run scripts`,
    );
    return '';
  }
  if (local === 'href' && (uri === '' || uri === XLINK_NS)) return checkHref(element, value, state, path);
  if (uri !== '' && prefix !== 'xml') {
    report(state, 'dropped', element, path, `attribute ${attr.name} is not supported and was removed`);
    return '';
  }
  if (!ALLOWED_ATTRIBUTES.has(name) && !/^(aria|data)-[a-z0-9-]+$/.test(name)) {
    report(state, 'dropped', element, path, `attribute ${name} is not supported and was removed`);
    return '';
  }
  if (name === 'style') return checkStyle(element, value, state, path);
  if (URL_ATTRIBUTES.has(name))
    for (const finding of checkAttributeValue(value))
      report(state, 'forbidden', element, path, `${name}: ${finding.message}`);
  if (name === 'id' && value.startsWith(RESERVED_ID_PREFIX)) {
    report(
      state,
      'dropped',
      element,
      path,
      `ids starting with "${RESERVED_ID_PREFIX}" are reserved for the theme; id removed`,
    );
    return '';
  }
  if (name === 'class' && state.knownClasses)
    warnUnknownClasses(element, value, state.knownClasses, state, path);
  return ` ${name}="${escapeAttribute(value)}"`;
}

function checkStyle(element: SvgElement, value: string, state: Walk, path: string): string {
  const checked = checkStyleAttribute(value);
  for (const finding of checked.findings)
    report(state, finding.kind, element, path, `style: ${finding.message}`);
  return checked.css ? ` style="${escapeAttribute(checked.css)}"` : '';
}

function checkHref(element: SvgElement, value: string, state: Walk, path: string): string {
  const kept = ` href="${escapeAttribute(value.trim())}"`;
  if (FRAGMENT_HREF_ELEMENTS.has(element.name) && isFragmentUrl(value)) return kept;
  if (element.name === 'a' && (isFragmentUrl(value) || isNavigableLink(value))) return kept;
  const why =
    element.name === 'a'
      ? 'links may only go to http, https or mailto addresses'
      : 'references may only point inside the document (href="#id")';
  report(state, 'forbidden', element, path, `href="${value.slice(0, 80)}" is not allowed: ${why}`);
  return '';
}

function isNavigableLink(value: string): boolean {
  try {
    return LINK_SCHEMES.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function warnUnknownClasses(
  element: SvgElement,
  value: string,
  known: Set<string>,
  state: Walk,
  path: string,
): void {
  for (const name of value.split(/\s+/).filter(Boolean)) {
    if (known.has(name) || state.styleClasses.has(name)) continue;
    const near = closest(name, [...known]);
    state.warnings.push({
      ...at(element, path),
      message: `<${element.name}> at line ${element.line}, column ${element.column}: class "${name}" is not in the vocabulary (did you mean "${near}"?); it gets no theme style`,
    });
  }
}

function rootBox(root: SvgElement, state: Walk): Box | undefined {
  const attr = (n: string) => root.attributes.find((a) => a.local === n && a.uri === '')?.value;
  const viewBox = attr('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (viewBox?.length === 4 && viewBox.every(Number.isFinite) && viewBox[2] > 0 && viewBox[3] > 0)
    return { x: viewBox[0], y: viewBox[1], width: viewBox[2], height: viewBox[3] };
  const width = Number.parseFloat(attr('width') ?? '');
  const height = Number.parseFloat(attr('height') ?? '');
  if (width > 0 && height > 0) return { x: 0, y: 0, width, height };
  if (attr('viewBox'))
    state.warnings.push({
      ...at(root, '/svg'),
      message: 'viewBox is not four numbers with a positive size; fitted to the content instead',
    });
  return undefined;
}

export const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');
