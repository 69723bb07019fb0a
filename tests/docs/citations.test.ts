// Comments and docs cite only what the repository holds (STYLE.md, "Size, names, comments"): a file under docs/ or a
// README section, never a section number of a document a reader of this repository cannot open.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TREES = ['server', 'renderer/src', 'electron', 'scripts', 'docs', 'tests', 'bench'];
const TOP_FILES = ['README.md', 'DEVELOPERS.md'];
const TEXT = /\.(ts|tsx|mjs|md)$/;

function sources(): string[] {
  const inTrees = TREES.flatMap((tree) =>
    readdirSync(join(ROOT, tree), { recursive: true, encoding: 'utf8' })
      .filter((f) => TEXT.test(f) && !f.split(/[\\/]/).includes('node_modules'))
      .map((f) => join(tree, f)),
  );
  return [...inTrees, ...TOP_FILES];
}

/** `[file:line] text` for each line matching `pattern`. */
function linesMatching(pattern: RegExp): string[] {
  return sources().flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1} ${line.trim()}`] : [])),
  );
}

describe('citations', () => {
  it('cite no section of an outside design document or spec', () => {
    const outside = new RegExp(`\\b(?:${['DESIGN', 'spec'].join('|')}) §\\s*\\d`);
    expect(linesMatching(outside)).toEqual([]);
  });

  it('name only docs/ files that exist', () => {
    const named = linesMatching(/\bdocs\/[\w-]+\.md\b/).flatMap((hit) =>
      [...hit.matchAll(/\bdocs\/([\w-]+\.md)\b/g)].map((m) => ({ hit, doc: m[1] })),
    );
    expect(named.length).toBeGreaterThan(10); // the sources were read
    expect(named.filter(({ doc }) => !existsSync(join(ROOT, 'docs', doc))).map(({ hit }) => hit)).toEqual([]);
  });
});
