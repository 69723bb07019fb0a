/**
 * Validation against the Vega-Lite JSON Schema (shipped in vega-lite) with ajv. Vega-Lite's schema is a
 * web of anyOf branches, so ajv reports every branch's complaint; this keeps the most specific one per
 * place and words it as what was expected, what was found and the nearest valid name.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Issue } from '../../../engines/render/render-failure.js';
import { issuesFromAjv } from '../schema-issues.js';

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
  if (validate(withoutRows(spec))) return [];
  return explain(validate.errors ?? []);
}

/** The spec with each inline `values` array emptied: the schema allows any rows, and checking 100k of them costs. */
function withoutRows(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRows);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === 'values' && Array.isArray(child) ? [] : withoutRows(child),
    ]),
  );
}

const COMPOSITIONS = ['layer', 'facet', 'repeat', 'concat', 'hconcat', 'vconcat'];

function explain(errors: ErrorObject[]): Issue[] {
  const onlyRoot = errors.every((e) => e.instancePath === '');
  if (onlyRoot && errors.some((e) => e.keyword === 'required' && e.params.missingProperty === 'mark'))
    return [
      {
        path: '',
        message: `missing "mark": a chart needs a mark (bar, line, point, area, arc, ...) or one of ${COMPOSITIONS.join(', ')}`,
      },
    ];
  return issuesFromAjv(errors);
}
