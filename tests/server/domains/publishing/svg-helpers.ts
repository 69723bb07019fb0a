// Test helpers: a strict re-parse of produced SVG, and the RenderFailure a call throws.
import { SaxesParser } from 'saxes';
import { RenderFailure } from '../../../../server/engines/render/render-failure.js';

/** Parses `svg` strictly as XML and answers the root's name and namespace and every element name. */
export function parseAsSvg(svg: string) {
  const parser = new SaxesParser({ xmlns: true });
  const names: string[] = [];
  let root: { name: string; uri: string } | undefined;
  parser.on('opentag', (tag) => {
    root ??= { name: tag.local, uri: tag.uri };
    names.push(tag.local);
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(svg).close();
  return { root, names };
}

export function failureOf(run: () => unknown): RenderFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof RenderFailure) return error;
    throw error;
  }
  throw new Error('expected a RenderFailure');
}
