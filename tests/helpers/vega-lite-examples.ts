/**
 * The official Vega-Lite examples (tests/fixtures/vega-lite-examples: the vega-lite repository's examples/specs,
 * BSD-3-Clause) with their `data/...` files inlined from the vega-datasets package, as a chart author would
 * paste them. What the product refuses by policy is named per example, from what the spec asks for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXAMPLES = fileURLToPath(new URL('../fixtures/vega-lite-examples/', import.meta.url));
const DATASETS = fileURLToPath(new URL('../../node_modules/vega-datasets/data/', import.meta.url));

export type Refusal = 'remote data' | 'image mark' | 'href channel';
export type Example = { name: string; spec: Record<string, unknown>; refusal?: Refusal };

export function vegaLiteExamples(): Example[] {
  return readdirSync(EXAMPLES)
    .filter((file) => file.endsWith('.vl.json'))
    .sort()
    .map((file) => {
      const source = readFileSync(join(EXAMPLES, file), 'utf8');
      const name = file.replace(/\.vl\.json$/, '');
      return { name, spec: inlineData(JSON.parse(source)), refusal: refusalOf(source) };
    });
}

function refusalOf(source: string): Refusal | undefined {
  if (/"url":\s*"https?:/.test(source)) return 'remote data';
  if (/"mark":\s*(\{\s*"type":\s*)?"image"/.test(source)) return 'image mark';
  if (/"href":\s*\{/.test(source)) return 'href channel';
  return undefined;
}

/** Every `{"url": "data/<file>"}` becomes inline `values` in the format the file's extension names. */
function inlineData<T>(node: T): T {
  if (Array.isArray(node)) return node.map(inlineData) as T;
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = inlineData(value);
  const url = copy.url;
  if (typeof url !== 'string' || !url.startsWith('data/')) return copy as T;
  const text = readFileSync(join(DATASETS, url.slice('data/'.length)), 'utf8');
  const format = { ...(copy.format as Record<string, unknown> | undefined) };
  delete copy.url;
  const extension = url.split('.').pop();
  if (extension === 'csv' || extension === 'tsv') {
    copy.values = text;
    copy.format = { ...format, type: format.type ?? extension };
  } else {
    copy.values = JSON.parse(text);
    if (Object.keys(format).length) copy.format = format;
  }
  return copy as T;
}
