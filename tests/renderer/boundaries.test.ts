// The renderer's import rules (STYLE.md, React renderer): no feature imports another; ui/ and api/ import no
// feature; server code crosses only as types.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../renderer/src/', import.meta.url));
const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => join(src, f));
const imports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^(import(?:\s+type)?)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => ({
    typeOnly: m[1].includes('type'),
    target: m[2],
  }));
const featureOf = (path: string) =>
  /^features\/([^/]+)\//.exec(relative(src, path).split('\\').join('/'))?.[1];

describe('renderer boundaries', () => {
  it('no feature imports another feature', () => {
    const crossings = files.flatMap((file) =>
      imports(file)
        .filter((i) => i.target.startsWith('.'))
        .map((i) => ({
          from: featureOf(file),
          to: featureOf(resolve(dirname(file), i.target)),
          file,
          target: i.target,
        }))
        .filter((i) => i.from && i.to && i.from !== i.to)
        .map((i) => `${relative(src, i.file)} → ${i.target}`),
    );
    expect(crossings).toEqual([]);
  });

  it('ui/ and api/ import no feature (except the temporary publishing types)', () => {
    const wrong = files
      .filter((f) => /^(ui|api)\//.test(relative(src, f)))
      .flatMap((file) =>
        imports(file)
          .filter((i) => i.target.includes('features/') && !i.target.endsWith('features/publishing-types'))
          .map((i) => `${relative(src, file)} → ${i.target}`),
      );
    expect(wrong).toEqual([]);
  });

  it('server code is imported for its types only', () => {
    const runtime = files.flatMap((file) =>
      imports(file)
        .filter((i) => (i.target.startsWith('@server/') || i.target.includes('/electron/')) && !i.typeOnly)
        .map((i) => `${relative(src, file)} → ${i.target}`),
    );
    expect(runtime).toEqual([]);
  });
});
