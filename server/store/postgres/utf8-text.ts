// PostgreSQL keeps text as UTF-8 without U+0000, and its JSON types refuse unpaired surrogates; JavaScript strings
// may hold both (hostile input does). Both become U+FFFD on the way in, in rows and in every query parameter, so a
// write never fails over them and a lookup with such a value finds what was stored for it.
import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PrimitiveValueListNode,
  type ValueNode,
} from 'kysely';

const clean = (value: unknown): unknown => {
  if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  if (Array.isArray(value)) return value.map(clean);
  return value;
};

class Utf8TextTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return { ...node, value: clean(node.value) };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(clean) };
  }
}

const transformer = new Utf8TextTransformer();

/** Cleans every parameter of every statement (unpaired surrogates need nothing: UTF-8 encoding replaces them). */
export const utf8TextPlugin: KyselyPlugin = {
  transformQuery: ({ node }) => transformer.transformNode(node),
  transformResult: async ({ result }) => result,
};

// JSON.stringify escapes exactly these: U+0000 as \u0000 and every unpaired surrogate as \udXXX (a paired one is
// written as itself). Matched only where the backslash is not itself escaped.
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/gi;

/** A row as JSON text JSONB accepts. */
export function serializeRow(value: unknown): string {
  const json = JSON.stringify(value);
  return /\\u(0000|d[89a-f])/i.test(json) ? json.replace(UNSTORABLE_ESCAPE, '$1\uFFFD') : json;
}
