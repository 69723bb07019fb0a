/** The artifact catalog: exactly these 15 components, in the order GET /api/v1/artifacts/components lists them. */
import { chart, diagram, metric, table } from './data-blocks.js';
import { accordion, grid, tabs } from './layout-blocks.js';
import { audio, image, links } from './media-blocks.js';
import { callout, code, heading, markdownBlock, timeline } from './text-blocks.js';
import type { ComponentSpec } from './types.js';

export const CATALOG: ComponentSpec[] = [
  heading,
  markdownBlock,
  callout,
  metric,
  table,
  chart,
  diagram,
  image,
  audio,
  code,
  tabs,
  accordion,
  grid,
  links,
  timeline,
];

export const COMPONENT_NAMES = CATALOG.map((c) => c.name);
export const componentNamed = (name: string) => CATALOG.find((c) => c.name === name);
export type { ComponentSpec } from './types.js';
