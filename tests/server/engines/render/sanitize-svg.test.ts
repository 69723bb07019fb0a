import { describe, expect, it } from 'vitest';
import { EXAMPLE_DIAGRAM, KNOWN_CLASSES } from '../../../../server/domains/publishing/diagrams/vocabulary.js';
import { sanitizeSvg } from '../../../../server/engines/render/svg/sanitize-svg.js';
import { failureOf, parseAsSvg } from '../../domains/publishing/svg-helpers.js';

const wrap = (inner: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${inner}</svg>`;
const issuesOf = (svg: string) =>
  failureOf(() => sanitizeSvg(svg, { knownClasses: KNOWN_CLASSES })).details.issues as {
    message: string;
    line: number;
    column: number;
  }[];

describe('sanitizeSvg', () => {
  it('keeps a vocabulary diagram whole, with its viewBox and no warnings', () => {
    const out = sanitizeSvg(EXAMPLE_DIAGRAM, { knownClasses: KNOWN_CLASSES });
    expect(out.warnings).toEqual([]);
    expect(out.viewBox).toEqual({ x: 0, y: 0, width: 420, height: 120 });
    expect(out.content).toContain('<rect class="node" x="0" y="40" width="140" height="56" rx="8"/>');
    expect(parseAsSvg(`<svg xmlns="http://www.w3.org/2000/svg">${out.content}</svg>`).names).toContain(
      'text',
    );
  });

  it('warns about a class outside the vocabulary with its position and the nearest name', () => {
    const out = sanitizeSvg('<svg viewBox="0 0 10 10">\n  <rect class="nod" width="5" height="5"/></svg>', {
      knownClasses: KNOWN_CLASSES,
    });
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toMatchObject({ line: 2, column: 3 });
    expect(out.warnings[0].message).toContain('did you mean "node"');
  });

  it('does not warn about classes the document defines in its own <style>', () => {
    const out = sanitizeSvg(
      wrap('<style>.brand { fill: #f60 }</style><rect class="brand" width="5" height="5"/>'),
      { knownClasses: KNOWN_CLASSES },
    );
    expect(out.warnings).toEqual([]);
  });

  it.each([
    ['a <script> element', wrap('<script>alert(1)</script>'), 'cannot run scripts'],
    ['an event handler', wrap('<rect onclick="alert(1)" width="5" height="5"/>'), 'event handler onclick'],
    [
      'an onload on the root',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'event handler onload',
    ],
    [
      'foreignObject',
      wrap('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'),
      'foreignObject',
    ],
    [
      'xlink:href="javascript:"',
      wrap('<a xlink:href="javascript:alert(1)"><text>x</text></a>'),
      'links may only go to',
    ],
    [
      'a tab-obfuscated javascript: link',
      wrap('<a href="java\tscript:alert(1)"><text>x</text></a>'),
      'links may only go to',
    ],
    [
      'a <use> of another file',
      wrap('<use href="https://evil.example/s.svg#x"/>'),
      'only point inside the document',
    ],
    ['an external image', wrap('<image href="https://evil.example/p.png"/>'), 'external resources'],
    [
      'CSS url() to a remote host in a style attribute',
      wrap('<rect style="fill: url(https://evil.example/x)"/>'),
      'points outside the document',
    ],
    [
      'CSS url() to a remote host in <style>',
      wrap('<style>rect { fill: url("//evil.example/x") }</style>'),
      'points outside the document',
    ],
    ['@import', wrap('<style>@import url(https://evil.example/a.css);</style>'), '@import'],
    [
      'a presentation attribute with a remote url()',
      wrap('<rect fill="url(https://evil.example/g)"/>'),
      'fill: url(',
    ],
    [
      'animation that rewrites a link',
      wrap('<a><animate attributeName="href" to="javascript:alert(1)"/></a>'),
      'static',
    ],
  ])('refuses %s with the problem and its position', (_name, svg, words) => {
    const issues = issuesOf(svg);
    expect(issues.map((i) => i.message).join(' ')).toContain(words);
    expect(issues[0].line).toBeGreaterThan(0);
    expect(issues[0].column).toBeGreaterThan(0);
  });

  it('refuses a DOCTYPE without expanding anything (billion laughs)', () => {
    const entities = Array.from({ length: 10 }, (_, i) =>
      i === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`,
    ).join('');
    const started = performance.now();
    const failure = failureOf(() =>
      sanitizeSvg(`<?xml version="1.0"?><!DOCTYPE svg [${entities}]><svg>&lol9;</svg>`),
    );
    expect(performance.now() - started).toBeLessThan(200);
    expect(failure.status).toBe(400);
    expect(failure.message).toContain('entity expansion is refused');
  });

  it('refuses an undeclared entity and malformed XML with a position', () => {
    expect(failureOf(() => sanitizeSvg(wrap('&foo;'))).message).toContain('not well-formed');
    const failure = failureOf(() => sanitizeSvg('<svg>\n<rect></svg>'));
    expect(failure.details.issues).toEqual([expect.objectContaining({ line: 2 })]);
  });

  it('drops editor metadata and unknown attributes with warnings, keeping the drawing', () => {
    const out = sanitizeSvg(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 9 9"><inkscape:grid/><rect inkscape:label="r" wobble="1" class="node" width="5" height="5"/></svg>',
    );
    expect(out.content).toBe('<rect class="node" width="5" height="5"/>');
    expect(out.warnings.map((w) => w.message).join(' ')).toMatch(
      /not an SVG element.*inkscape:label.*wobble/s,
    );
  });

  it('escapes text so a </script> in a label stays text', () => {
    const out = sanitizeSvg(
      wrap('<text class="label">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</text>'),
    );
    expect(out.content).toContain('&lt;/script&gt;&lt;script&gt;');
    expect(out.content).not.toContain('<script');
  });

  it('keeps in-document references and http links', () => {
    const out = sanitizeSvg(
      wrap(
        '<defs><linearGradient id="g"/></defs><rect fill="url(#g)" style="stroke: url(#g)"/><a href="https://example.com/x"><text>x</text></a>',
      ),
    );
    expect(out.content).toContain('fill="url(#g)"');
    expect(out.content).toContain('href="https://example.com/x"');
  });

  it('answers 413 past the element bound', () => {
    const many = wrap('<rect/>'.repeat(30));
    expect(failureOf(() => sanitizeSvg(many, { limits: { maxElements: 20, maxDepth: 64 } })).status).toBe(
      413,
    );
  });
});
