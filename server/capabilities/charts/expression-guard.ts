/**
 * Every expression of a compiled chart (filters, calculations, signals, event filters), read from the ASTs
 * vega keeps when parsing with `ast: true`. Vega already limits calls to its own function table; this also
 * refuses names that lead out of the view (window, document, an event's view or target, prototypes), so such
 * a chart is refused with a 400 rather than trusted to be inert.
 */
import { parseExpression } from 'vega-expression';
import type { Issue } from '../publishing/render-failure.js';

const GLOBALS = new Set([
  'window',
  'document',
  'globalThis',
  'self',
  'top',
  'parent',
  'frames',
  'opener',
  'location',
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
const MEMBERS = new Set([
  ...GLOBALS,
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  'view',
  'target',
  'currentTarget',
  'srcElement',
  'relatedTarget',
  'ownerDocument',
  'defaultView',
  'ownerSVGElement',
  'parentNode',
  'parentElement',
  'cookie',
  'localStorage',
  'sessionStorage',
  'innerHTML',
  'outerHTML',
]);

type Node = {
  type: string;
  name?: string;
  value?: unknown;
  computed?: boolean;
  property?: Node;
  [key: string]: unknown;
};

/** The first forbidden name in any expression of `runtime` (vega.parse output), or undefined. */
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

function forbiddenIn(node: Node): string | undefined {
  if (node.type === 'Identifier' && MEMBERS.has(node.name!)) return node.name;
  if (node.type === 'MemberExpression') {
    const property = node.property!;
    const name = node.computed
      ? property.type === 'Literal'
        ? String(property.value)
        : undefined
      : property.name;
    if (name !== undefined && MEMBERS.has(name)) return name;
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'property' && !node.computed) continue; // a.name is not a reference to `name`
    const children = Array.isArray(child) ? child : [child];
    for (const c of children) {
      if (typeof c === 'object' && c !== null && 'type' in c) {
        const inner = forbiddenIn(c as Node);
        if (inner) return inner;
      }
    }
  }
  return undefined;
}

/** Where in the Vega-Lite document the name appears, for the 400's pointer. */
export function issueFor(name: string, spec: unknown): Issue {
  const message = `an expression reaches "${name}": chart expressions may use data fields, parameters and Vega's functions only`;
  return { path: pointerOfText(spec, name) ?? '', message };
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
