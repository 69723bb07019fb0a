/**
 * Every expression of a compiled chart (filters, calculations, signals, event filters), read from the ASTs
 * vega keeps when parsing with `ast: true`, with vega's own semantics: an identifier is `datum`, `event`,
 * `item`, a constant or a signal (`parent` is the facet's parent row; a param may be named `view`), and vega
 * refuses every other name while parsing. Data leads nowhere, so a member of a row or a signal is data
 * (`datum.location`, `parent["a"]`). What leads out of the page is refused: an event's DOM (`event.view`,
 * `event.target`), a scenegraph item's DOM node (`_svg`, or any member of an item or event named at run
 * time), the view behind `view()`, and prototype walks.
 */
import { parseExpression } from 'vega-expression';
import type { Issue } from '../../../engines/render/render-failure.js';

/** Browser and Node globals: vega reports one as an unknown signal, and the 400 says where it reached. */
const HOST_GLOBALS = new Set([
  'window',
  'document',
  'globalThis',
  'self',
  'top',
  'frames',
  'opener',
  'navigator',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'eval',
  'Function',
  'setTimeout',
  'setInterval',
  'importScripts',
  'process',
  'require',
  'module',
  'global',
]);

/** Members that lead from any value to a prototype or to the DOM; never data. */
const NEVER_MEMBERS = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  '_svg', // the SVG renderer's DOM node on each scenegraph item
  'ownerDocument',
  'defaultView',
  'ownerSVGElement',
  'parentNode',
  'parentElement',
  'documentElement',
  'contentWindow',
  'contentDocument',
  'cookie',
  'localStorage',
  'sessionStorage',
  'innerHTML',
  'outerHTML',
]);

/** What an expression may read from a DOM event: its values and vega's item, never its view or targets. */
const EVENT_MEMBERS = new Set([
  'item',
  'type',
  'button',
  'buttons',
  'shiftKey',
  'ctrlKey',
  'altKey',
  'metaKey',
  'key',
  'code',
  'keyCode',
  'repeat',
  'deltaX',
  'deltaY',
  'deltaZ',
  'deltaMode',
  'clientX',
  'clientY',
  'pageX',
  'pageY',
  'screenX',
  'screenY',
  'offsetX',
  'offsetY',
  'movementX',
  'movementY',
  'detail',
  'timeStamp',
  'pointerId',
  'pointerType',
  'pressure',
  'isPrimary',
  'touches',
  'changedTouches',
  'targetTouches',
  'identifier',
  'length',
]);

type Node = {
  type: string;
  name?: string;
  value?: unknown;
  computed?: boolean;
  object?: Node;
  property?: Node;
  callee?: Node;
  [key: string]: unknown;
};

/** The first expression in `runtime` (vega.parse output) that leads out of the chart, or undefined. */
export function findForbiddenName(runtime: unknown): string | undefined {
  let found: string | undefined;
  const seen = new Set<unknown>();
  const walk = (value: unknown): void => {
    if (found || typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    // Parsed expressions appear as { code, ast } (signals) or { $expr: { code, ast } } (operators)
    const ast = (value as { ast?: Node }).ast;
    if (ast && typeof ast === 'object' && typeof ast.type === 'string') found = forbiddenIn(ast);
    for (const [key, child] of Object.entries(value)) if (key !== 'values') walk(child); // rows hold no expressions
  };
  walk(runtime);
  return found;
}

/** A name that vega could not resolve and that belongs to the host, for the refusal's words. */
export function isHostGlobal(name: string): boolean {
  return HOST_GLOBALS.has(name);
}

function forbiddenIn(node: Node): string | undefined {
  if (node.type === 'MemberExpression') return forbiddenChain(node);
  if (node.type === 'CallExpression' && node.callee?.name === 'view') return 'view()'; // vega's View object
  return forbiddenBelow(node);
}

function forbiddenBelow(node: Node): string | undefined {
  for (const child of Object.values(node)) {
    for (const c of Array.isArray(child) ? child : [child]) {
      if (typeof c === 'object' && c !== null && typeof (c as Node).type === 'string') {
        const inner = forbiddenIn(c as Node);
        if (inner) return inner;
      }
    }
  }
  return undefined;
}

type Reading = 'data' | 'event' | 'event value' | 'item';

/** `a.b[c].d`, read from its root: what each step reads decides what the next may name. */
function forbiddenChain(node: Node): string | undefined {
  const steps: Node[] = [];
  let root: Node = node;
  while (root.type === 'MemberExpression') {
    steps.unshift(root);
    root = root.object!;
  }
  let reading = readingOf(root);
  const inRoot = root.type === 'Identifier' ? undefined : forbiddenIn(root);
  if (inRoot) return inRoot;
  for (const step of steps) {
    const property = step.property!;
    const name = !step.computed
      ? property.name
      : property.type === 'Literal'
        ? String(property.value)
        : undefined;
    // vega's parser turns a quoted prototype name (`a['constructor']`) into an identifier: refuse it as named
    if (step.computed && property.type === 'Identifier' && NEVER_MEMBERS.has(property.name!))
      return property.name;
    if (name === undefined) {
      const inKey = forbiddenIn(property);
      if (inKey) return inKey;
      if (reading !== 'data') return `${describe(root)}[…]`; // a computed member of an event or item: unknown
      continue;
    }
    if (NEVER_MEMBERS.has(name)) return name;
    if (/^\d+$/.test(name)) continue;
    if (reading === 'event') {
      if (!EVENT_MEMBERS.has(name)) return `event.${name}`;
      reading = name === 'item' ? 'item' : 'event value';
    } else if (reading === 'event value') {
      if (!EVENT_MEMBERS.has(name)) return `event.${name}`;
    } else if (reading === 'item' && name === 'datum') reading = 'data';
  }
  return undefined;
}

function readingOf(root: Node): Reading {
  if (root.type === 'Identifier')
    return root.name === 'event' ? 'event' : root.name === 'item' ? 'item' : 'data';
  if (root.type === 'CallExpression' && (root.callee?.name === 'item' || root.callee?.name === 'group'))
    return 'item';
  return 'data';
}

function describe(root: Node): string {
  if (root.type === 'Identifier') return root.name!;
  if (root.type === 'CallExpression') return `${root.callee?.name}()`;
  return 'value';
}

/** Where in the Vega-Lite document the expression appears, for the 400's pointer. */
export function issueFor(name: string, spec: unknown): Issue {
  const message = `an expression reaches "${name}": chart expressions may use data fields, parameters and Vega's functions only`;
  const needle =
    name
      .replace(/\(\)$|\[…\]$/, '')
      .split('.')
      .pop() ?? name;
  return { path: pointerOfText(spec, needle) ?? '', message };
}
export function pointerOfText(value: unknown, text: string, pointer = ''): string | undefined {
  if (typeof value === 'string') return value.includes(text) ? pointer : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = pointerOfText(child, text, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Keys whose string values Vega-Lite reads as expressions. */
const EXPRESSION_KEYS = new Set(['calculate', 'filter', 'expr', 'test', 'update', 'signal']);

/** The first expression string in the document that does not parse, with its pointer (for compile errors). */
export function findUnparsable(value: unknown, pointer = ''): Issue | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (EXPRESSION_KEYS.has(key) && typeof child === 'string') {
      try {
        parseExpression(child);
      } catch (error) {
        return {
          path: at,
          message: `expression "${child.slice(0, 80)}" could not be parsed: ${(error as Error).message}`,
        };
      }
    }
    const inner = findUnparsable(child, at);
    if (inner) return inner;
  }
  return undefined;
}
