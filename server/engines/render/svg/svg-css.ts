/**
 * CSS inside a diagram (style attributes and <style> elements), parsed with css-tree and re-generated from
 * the checked tree: url() may only point inside the document (`url(#id)`), nothing may be imported or
 * loaded, and properties outside the allow-list are dropped.
 */
import * as csstree from 'css-tree';
import { ALLOWED_CSS_PROPERTIES } from './svg-allowlist.js';

export type CssFinding = { kind: 'forbidden' | 'dropped'; message: string };
export type CheckedCss = { css: string; findings: CssFinding[]; classes: Set<string> };

const LOADING_FUNCTIONS = new Set([
  'image',
  'image-set',
  '-webkit-image-set',
  'cross-fade',
  'element',
  'src',
]);
const LOADING_AT_RULES = new Set(['import', 'font-face', 'namespace']);

/** A value's url(...) target is fine only as an in-document fragment. */
export const isFragmentUrl = (target: string) => /^#[A-Za-z_][\w.-]*$/.test(target.trim());

export function checkStyleAttribute(text: string): CheckedCss {
  return check(text, 'declarationList');
}

export function checkStyleSheet(text: string): CheckedCss {
  return check(text, 'stylesheet');
}

function check(text: string, context: 'declarationList' | 'stylesheet'): CheckedCss {
  const findings: CssFinding[] = [];
  const classes = new Set<string>();
  let parseError: string | undefined;
  const ast = csstree.parse(text, {
    context,
    onParseError: (error) => {
      parseError ??= error.message;
    },
  });
  if (parseError) {
    findings.push({ kind: 'forbidden', message: `CSS could not be parsed (${parseError})` });
    return { css: '', findings, classes };
  }
  csstree.walk(ast, {
    enter(
      node: csstree.CssNode,
      item: csstree.ListItem<csstree.CssNode>,
      list: csstree.List<csstree.CssNode>,
    ) {
      switch (node.type) {
        case 'Url':
          if (!isFragmentUrl(node.value))
            findings.push({
              kind: 'forbidden',
              message: `url(${node.value}) points outside the document; only url(#id) is allowed`,
            });
          break;
        case 'Function':
          if (LOADING_FUNCTIONS.has(node.name.toLowerCase()))
            findings.push({ kind: 'forbidden', message: `${node.name}() loads external resources` });
          break;
        case 'Raw':
          findings.push({
            kind: 'forbidden',
            message: `CSS could not be parsed near "${node.value.slice(0, 40)}"`,
          });
          break;
        case 'Atrule':
          if (LOADING_AT_RULES.has(node.name.toLowerCase()))
            findings.push({ kind: 'forbidden', message: `@${node.name} loads external resources` });
          else if (node.name.toLowerCase() !== 'media' && list) {
            findings.push({ kind: 'dropped', message: `@${node.name} is not supported and was removed` });
            list.remove(item);
          }
          break;
        case 'Declaration':
          if (!ALLOWED_CSS_PROPERTIES.has(node.property.toLowerCase()) && list) {
            findings.push({
              kind: 'dropped',
              message: `CSS property ${node.property} is not allowed and was removed`,
            });
            list.remove(item);
          }
          break;
        case 'ClassSelector':
          classes.add(node.name);
          break;
      }
    },
  });
  return { css: csstree.generate(ast), findings, classes };
}

/** A presentation attribute's value (fill="url(#g)", marker-end, clip-path ...): the same url() rule. */
export function checkAttributeValue(value: string): CssFinding[] {
  const { findings } = check(`x: ${value}`, 'declarationList');
  return findings.filter((f) => f.kind === 'forbidden');
}
