// A JSON answer whose text is already known, so it is written as is instead of being serialized again: a list page
// assembled from its records' cached JSON (domains/assets/present-asset.ts). `value` is the same answer as an
// object, for MCP's structured content; JSON.stringify of a JsonText gives `text` back through toJSON.

export class JsonText<T = unknown> {
  constructor(
    readonly value: T,
    readonly text: string,
  ) {}

  toJSON(): T {
    return this.value;
  }
}

/** A route's answer as a value: a JsonText's object, anything else as it is. */
export const answerValue = (result: unknown): unknown => (result instanceof JsonText ? result.value : result);
