/** The node/edge graph POST /api/v1/diagrams/layout takes, and what it answers. */
import { z } from 'zod';
import { HEADS, TONES } from './theme.js';

export const LAYOUT_LIMITS = { nodes: 2000, edges: 5000, groups: 200 };

const Id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'ids may use letters, digits, _ . : and -');
const Text = z.string().max(200);
const Tone = z.enum(TONES);
const Side = z.enum(['north', 'south', 'east', 'west']);
const Head = z.enum([...HEADS, 'none']);

export const NODE_SHAPES = ['node', 'terminal', 'decision', 'store', 'actor', 'state', 'note'] as const;

export const LayoutNode = z.strictObject({
  id: Id,
  label: Text.optional().describe('Defaults to the id'),
  sublabel: Text.optional().describe('A second, quieter line'),
  shape: z.enum(NODE_SHAPES).default('node'),
  tone: Tone.optional(),
  parent: Id.optional().describe('The id of the group this node sits in'),
  width: z.number().min(8).max(2000).optional().describe('Fixed size; by default sized to the label'),
  height: z.number().min(8).max(2000).optional(),
  ports: z
    .array(z.strictObject({ id: Id, side: Side }))
    .max(32)
    .optional()
    .describe('Fixed connection points; edges name them with fromPort/toPort'),
});
export type LayoutNode = z.output<typeof LayoutNode>;

export const LayoutGroup = z.strictObject({
  id: Id,
  label: Text.optional(),
  parent: Id.optional().describe('Groups nest: the id of the enclosing group'),
  tone: Tone.optional(),
});
export type LayoutGroup = z.output<typeof LayoutGroup>;

export const LayoutEdge = z.strictObject({
  id: Id.optional(),
  from: Id,
  to: Id,
  fromPort: Id.optional(),
  toPort: Id.optional(),
  label: Text.optional(),
  tone: Tone.optional(),
  line: z.enum(['solid', 'dashed', 'dotted']).default('solid'),
  head: Head.default('arrow'),
  tail: Head.default('none'),
});
export type LayoutEdge = z.output<typeof LayoutEdge>;

export const LayoutRequest = z.strictObject({
  nodes: z.array(LayoutNode).min(1, 'give at least one node'),
  edges: z.array(LayoutEdge).default([]),
  groups: z.array(LayoutGroup).default([]),
  direction: z.enum(['right', 'down', 'left', 'up']).default('right'),
  algorithm: z.enum(['layered', 'mrtree', 'force', 'stress']).default('layered'),
  edgeRouting: z.enum(['orthogonal', 'polyline', 'splines']).default('orthogonal'),
  spacing: z
    .strictObject({
      node: z.number().min(0).max(400).default(32).describe('Between nodes in the same layer'),
      layer: z.number().min(0).max(800).default(56).describe('Between layers'),
    })
    .default({ node: 32, layer: 56 }),
  title: Text.optional(),
  subtitle: Text.optional(),
  format: z
    .enum(['json', 'svg'])
    .default('json')
    .describe('"svg" also answers a ready SVG in the vocabulary'),
});
export type LayoutRequest = z.output<typeof LayoutRequest>;

const Rect = { x: z.number(), y: z.number(), width: z.number(), height: z.number() };
const Point = z.object({ x: z.number(), y: z.number() });

export const LayoutResult = z.object({
  width: z.number(),
  height: z.number(),
  nodes: z.array(z.object({ id: z.string(), ...Rect })),
  groups: z.array(z.object({ id: z.string(), ...Rect })),
  edges: z.array(
    z.object({
      id: z.string(),
      from: z.string(),
      to: z.string(),
      points: z.array(Point).describe('Route from source border to target border, bends included'),
      label: z.object({ text: z.string(), ...Rect }).optional(),
    }),
  ),
  svg: z.string().optional().describe('With format "svg": publishable as a diagram as is'),
});
export type LayoutResult = z.output<typeof LayoutResult>;
