/**
 * An artifact document checked against the catalog: every component against its own JSON Schema (ajv),
 * every problem with its JSON pointer and a message an agent can act on, and the things it refers to
 * (charts, diagrams, assets, transcripts) listed for the service to resolve in the workspace.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { closest } from 'fastest-levenshtein';
import { type Issue, tooLarge } from '../../../engines/render/render-failure.js';
import { issuesFromAjv, kindOf } from '../schema-issues.js';
import { CATALOG, COMPONENT_NAMES, componentNamed } from './catalog/index.js';

export const ARTIFACT_LIMITS = { components: 500, depth: 6, tableRows: 5000 };

export type Reference =
  | { kind: 'chart'; slug: string; pointer: string }
  | { kind: 'inline-chart'; spec: unknown; pointer: string }
  | { kind: 'diagram'; slug: string; pointer: string }
  | { kind: 'image' | 'audio'; asset: string; pointer: string }
  | { kind: 'transcript'; transcript: string; asset: string; pointer: string };

export type DocumentCheck = { issues: Issue[]; references: Reference[] };

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, verbose: true });
const validators = new Map<string, ValidateFunction>(CATALOG.map((c) => [c.name, ajv.compile(c.schema)]));

type Walk = DocumentCheck & { components: number; rows: number };

export function validateArtifact(document: unknown): DocumentCheck {
  const walk: Walk = { issues: [], references: [], components: 0, rows: 0 };
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    walk.issues.push({
      path: '',
      message: `expected an object { "children": [components] }; found ${kindOf(document)}`,
    });
  else {
    const { children, ...rest } = document as Record<string, unknown>;
    for (const key of Object.keys(rest))
      walk.issues.push({
        path: `/${key}`,
        message: `unknown property "${key}": a document has only "children"`,
      });
    if (!Array.isArray(children) || children.length === 0)
      walk.issues.push({ path: '/children', message: 'expected a non-empty array of components' });
    else visitList(children, '/children', 1, walk);
  }
  return { issues: walk.issues.slice(0, 50), references: walk.references };
}

function visitList(list: unknown[], pointer: string, depth: number, walk: Walk): void {
  if (depth > ARTIFACT_LIMITS.depth)
    throw tooLarge(`Components nest more than ${ARTIFACT_LIMITS.depth} deep (at ${pointer})`);
  list.forEach((node, i) => {
    visitNode(node, `${pointer}/${i}`, depth, walk);
  });
}

function visitNode(node: unknown, pointer: string, depth: number, walk: Walk): void {
  walk.components += 1;
  if (walk.components > ARTIFACT_LIMITS.components)
    throw tooLarge(`The document has more than ${ARTIFACT_LIMITS.components} components`);
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    walk.issues.push({
      path: pointer,
      message: `expected a component object with a "type"; found ${kindOf(node)}`,
    });
    return;
  }
  const type = (node as { type?: unknown }).type;
  const spec = typeof type === 'string' ? componentNamed(type) : undefined;
  if (!spec) {
    walk.issues.push({ path: `${pointer}/type`, message: unknownType(type) });
    return;
  }
  const validate = validators.get(spec.name)!;
  if (!validate(node)) walk.issues.push(...issuesFromAjv(validate.errors ?? [], pointer));
  collect(node as Record<string, unknown>, pointer, walk);
  for (const path of spec.children ?? [])
    for (const [list, at] of listsAt(node, path, pointer)) visitList(list, at, depth + 1, walk);
}

function unknownType(type: unknown): string {
  const catalog = COMPONENT_NAMES.join(', ');
  if (typeof type !== 'string') return `missing "type": one of ${catalog}`;
  return `unknown component "${type}" (did you mean "${closest(type, COMPONENT_NAMES)}"?); the catalog has ${catalog}`;
}

/** The child arrays along a path like ['tabs', '*', 'children'], each with its pointer. */
function listsAt(node: unknown, path: string[], pointer: string): Array<[unknown[], string]> {
  if (path.length === 0) return Array.isArray(node) ? [[node, pointer]] : [];
  if (typeof node !== 'object' || node === null) return [];
  const [head, ...rest] = path;
  if (head === '*')
    return Array.isArray(node) ? node.flatMap((item, i) => listsAt(item, rest, `${pointer}/${i}`)) : [];
  return listsAt((node as Record<string, unknown>)[head], rest, `${pointer}/${head}`);
}

function collect(node: Record<string, unknown>, pointer: string, walk: Walk): void {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (node.type) {
    case 'chart':
      if (str(node.slug))
        walk.references.push({ kind: 'chart', slug: node.slug as string, pointer: `${pointer}/slug` });
      else if (node.spec && typeof node.spec === 'object')
        walk.references.push({ kind: 'inline-chart', spec: node.spec, pointer: `${pointer}/spec` });
      break;
    case 'diagram':
      if (str(node.slug))
        walk.references.push({ kind: 'diagram', slug: node.slug as string, pointer: `${pointer}/slug` });
      break;
    case 'image':
    case 'audio':
      if (str(node.asset))
        walk.references.push({ kind: node.type, asset: node.asset as string, pointer: `${pointer}/asset` });
      if (node.type === 'audio' && str(node.transcript) && str(node.asset))
        walk.references.push({
          kind: 'transcript',
          transcript: node.transcript as string,
          asset: node.asset as string,
          pointer: `${pointer}/transcript`,
        });
      break;
    case 'table':
      walk.rows += Array.isArray(node.rows) ? node.rows.length : 0;
      if (walk.rows > ARTIFACT_LIMITS.tableRows)
        throw tooLarge(
          `The document's tables have more than ${ARTIFACT_LIMITS.tableRows.toLocaleString('en')} rows; link a chart or split the page`,
        );
      break;
  }
}
