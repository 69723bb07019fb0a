/**
 * How deep a published document (artifact, chart, diagram) may nest, checked before anything walks it: handing
 * a document to a render process serializes it recursively, so a 10,000-deep one overflowed the stack
 * (docs/publishing.md).
 */
import { badRequest } from '../../http/errors.js';
import type { Issue } from './render-failure.js';

/**
 * Objects and arrays nested in one document, the document itself being level 1. A page at the component
 * limit (6 deep, 4 levels each through tabs) with a Vega-Lite spec inside stays under 50.
 */
export const MAX_DOCUMENT_DEPTH = 64;

type Frame = { value: object; depth: number; parent?: Frame; key?: string };

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;
const escapeKey = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** The first place the document nests past MAX_DOCUMENT_DEPTH, as an issue; a loop, so it cannot overflow. */
export function depthProblem(document: unknown): Issue | undefined {
  if (!isContainer(document)) return undefined;
  const stack: Frame[] = [{ value: document, depth: 1 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth > MAX_DOCUMENT_DEPTH)
      return {
        path: pointerOf(frame),
        message: `the document nests more than ${MAX_DOCUMENT_DEPTH} levels deep (objects and arrays)`,
      };
    for (const [key, child] of Object.entries(frame.value))
      if (isContainer(child)) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
  }
  return undefined;
}

/** Throws 400 naming the limit and where it is passed; call it before the document reaches a render process. */
export function assertDocumentDepth(document: unknown): void {
  const problem = depthProblem(document);
  if (problem)
    throw badRequest(`The document ${problem.message.slice('the document '.length)}, at ${problem.path}`, {
      issues: [problem],
    });
}

function pointerOf(frame: Frame): string {
  const keys: string[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) keys.push(escapeKey(at.key));
  return keys
    .reverse()
    .map((key) => `/${key}`)
    .join('');
}
