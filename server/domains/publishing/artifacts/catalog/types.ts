/** A catalog component: its JSON Schema (draft-07), what it is for, an example, and where its children are. */
export type JsonSchema = Record<string, unknown>;

export type ComponentSpec = {
  name: string;
  description: string;
  schema: JsonSchema;
  example: Record<string, unknown>;
  /** Paths to arrays of child components, `*` for every item: ['children'], ['tabs', '*', 'children']. */
  children?: string[][];
};

export const text = (description: string, maxLength = 200): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  description,
});

/** A component's schema: an object with its `type` constant and no properties besides the named ones. */
export function component(
  name: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `folio:artifact-component:${name}`,
    type: 'object',
    properties: { type: { const: name }, ...properties },
    required: ['type', ...required],
    additionalProperties: false,
  };
}

export const childList = (description: string): JsonSchema => ({
  type: 'array',
  description,
  items: { type: 'object', description: 'A catalog component (validated as one)' },
});
