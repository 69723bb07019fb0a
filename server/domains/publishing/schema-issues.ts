/**
 * ajv errors worded for an agent: one issue per place (the deepest places only, since a complaint about
 * /a is noise when /a/b is the problem), saying what was expected, what was found and the nearest valid name.
 */
import type { ErrorObject } from 'ajv';
import { closest } from 'fastest-levenshtein';
import type { Issue } from '../../engines/render/render-failure.js';

const RANK: Record<string, number> = { enum: 0, const: 1, type: 2, additionalProperties: 3, required: 4 };

export function issuesFromAjv(errors: ErrorObject[], base = '', limit = 20): Issue[] {
  const paths = [...new Set(errors.map((e) => e.instancePath))];
  const deepest = paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p}/`)));
  return deepest.slice(0, limit).map((path) => ({
    path: `${base}${path}`,
    message: describeErrors(errors.filter((e) => e.instancePath === path)),
  }));
}

/** The most telling of the errors at one place (an enum beats a type beats an unknown property ...). */
export function describeErrors(errors: ErrorObject[]): string {
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
      return `${first.message ?? 'is not valid'}${foundSuffix(first)}`;
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
  return `unknown property "${name}"${near ? ` (did you mean "${near}"?; allowed: ${known.join(', ')})` : ''}`;
}

function foundSuffix(error: ErrorObject): string {
  const data = error.data;
  if (typeof data === 'string' && /Length$/.test(error.keyword)) return ` (found ${data.length} characters)`;
  if (Array.isArray(data) && /Items$/.test(error.keyword)) return ` (found ${data.length})`;
  if (typeof data === 'number' || typeof data === 'string')
    return ` (found ${JSON.stringify(data).slice(0, 60)})`;
  return '';
}

export const kindOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
