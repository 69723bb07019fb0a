/**
 * Validation against the Vega-Lite JSON Schema (shipped in vega-lite) with ajv. Vega-Lite's schema is a
 * web of anyOf branches, so ajv reports every branch's complaint; this keeps the most specific one per
 * place and words it as what was expected, what was found and the nearest valid name.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { closest } from 'fastest-levenshtein';
import type { Issue } from '../publishing/render-failure.js';

const require = createRequire(import.meta.url);
let validator: ValidateFunction | undefined;

/** Compiled once per worker thread (a few seconds: the schema is ~2 MB). */
function compiled(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(require.resolve('vega-lite/vega-lite-schema.json'), 'utf8'));
    const ajv = new Ajv({
      allErrors: true,
      strict: false,
      allowUnionTypes: true,
      logger: false,
      verbose: true,
    });
    validator = ajv.compile(schema);
  }
  return validator;
}

/** Every problem with the spec as { path: JSON pointer, message }; empty when it is valid Vega-Lite. */
export function validateVegaLite(spec: unknown): Issue[] {
  const validate = compiled();
  if (validate(spec)) return [];
  return explain(validate.errors ?? []);
}

const RANK: Record<string, number> = { enum: 0, const: 1, type: 2, additionalProperties: 3, required: 4 };
const COMPOSITIONS = ['mark', 'layer', 'facet', 'repeat', 'concat', 'hconcat', 'vconcat'];

function explain(errors: ErrorObject[]): Issue[] {
  const paths = [...new Set(errors.map((e) => e.instancePath))];
  // Keep the deepest places: a complaint about /encoding/x is noise when /encoding/x/type is the problem.
  const deepest = paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p}/`)));
  return deepest.slice(0, 20).map((path) => ({
    path,
    message: describe(
      errors.filter((e) => e.instancePath === path),
      path,
    ),
  }));
}

function describe(errors: ErrorObject[], path: string): string {
  if (path === '' && errors.some((e) => e.keyword === 'required' && e.params.missingProperty === 'mark'))
    return `missing "mark": a chart needs a mark (bar, line, point, area, arc, ...) or one of ${COMPOSITIONS.slice(1).join(', ')}`;
  const best = Math.min(...errors.map((e) => RANK[e.keyword] ?? 9));
  const chosen = errors.filter((e) => (RANK[e.keyword] ?? 9) === best);
  const first = chosen[0];
  switch (first.keyword) {
    case 'enum':
    case 'const': {
      const allowed = [...new Set(chosen.flatMap((e) => e.params.allowedValues ?? [e.params.allowedValue]))];
      const found = first.data;
      const near = typeof found === 'string' ? closest(found, allowed.map(String)) : undefined;
      return `expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}; found ${JSON.stringify(found)}${near ? ` (did you mean "${near}"?)` : ''}`;
    }
    case 'type':
      return `expected ${[...new Set(chosen.map((e) => e.params.type))].join(' or ')}; found ${kindOf(first.data)}`;
    case 'additionalProperties':
      return unknownProperty(chosen);
    case 'required':
      return `missing required property "${first.params.missingProperty}"`;
    default:
      return first.message ?? 'is not valid Vega-Lite';
  }
}

/** The property every branch rejects is the misspelt one; suggest the nearest name a branch accepts. */
function unknownProperty(errors: ErrorObject[]): string {
  const counts = new Map<string, number>();
  for (const e of errors)
    counts.set(e.params.additionalProperty, (counts.get(e.params.additionalProperty) ?? 0) + 1);
  const [name] = [...counts].sort((a, b) => b[1] - a[1])[0];
  const known = [
    ...new Set(
      errors.flatMap((e) => Object.keys((e.parentSchema as { properties?: object })?.properties ?? {})),
    ),
  ];
  const near = known.length ? closest(name, known) : undefined;
  return `unknown property "${name}"${near ? ` (did you mean "${near}"?)` : ''}`;
}

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
