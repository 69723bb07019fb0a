/** Request shapes of the diagrams routes (the shared publication shapes are in publishing/schema.ts). */
import { z } from 'zod';
import { PublishFields, UpdateFields, Warning } from '../schema.js';
import { DIAGRAM_KINDS } from './vocabulary.js';

export const DiagramKind = z.enum(DIAGRAM_KINDS);
export const DiagramSvg = z
  .string()
  .min(1, 'svg must not be empty')
  .describe(
    'An SVG fragment in the vocabulary (GET /api/v1/diagrams/vocabulary): an <svg viewBox> or bare elements',
  );

export const PublishDiagramBody = z.strictObject({
  ...PublishFields,
  kind: DiagramKind.optional(),
  svg: DiagramSvg,
});
export type PublishDiagramBody = z.output<typeof PublishDiagramBody>;
export const UpdateDiagramBody = z.strictObject({
  ...UpdateFields,
  kind: DiagramKind.optional(),
  svg: DiagramSvg,
});
export type UpdateDiagramBody = z.output<typeof UpdateDiagramBody>;

export const PreviewDiagramBody = z.strictObject({
  svg: DiagramSvg,
  title: z.string().max(200).optional(),
  theme: z.enum(['light', 'dark']).default('light').describe('Theme of the PNG (the SVG carries both)'),
  scale: z.number().min(0.25).max(4).default(2).describe('PNG pixels per SVG unit'),
});

export const PreviewQuery = z.object({
  format: z.enum(['json', 'png']).default('json').describe('"png" answers the PNG bytes instead of JSON'),
});

export const DiagramPreview = z.object({
  document: z.string().describe('The checked SVG in the vocabulary, as it would be stored'),
  svg: z.string().describe('The themed SVG as served (light, and dark by prefers-color-scheme)'),
  width: z.number(),
  height: z.number(),
  png: z.string().describe('data:image/png;base64,...'),
  pngWidth: z.number().int(),
  pngHeight: z.number().int(),
  warnings: z.array(Warning),
});

export const DiagramListQuery = z.object({
  kind: DiagramKind.optional().describe('Only diagrams of this kind'),
});

export const PageQuery = z.object({
  version: z.coerce.number().int().min(1).optional(),
  theme: z.enum(['light', 'dark']).default('light'),
});

const VocabularyEntry = z.object({
  name: z.string(),
  appliesTo: z.string(),
  description: z.string(),
  example: z.string(),
});
export const Vocabulary = z.object({
  shapes: z.array(VocabularyEntry),
  edges: z.array(VocabularyEntry).describe('Edge classes and arrowheads (head-*, tail-*)'),
  groups: z.array(VocabularyEntry).describe('Groups and swimlanes'),
  modifiers: z.array(VocabularyEntry).describe('emphasis, muted, ok, warn, error, dashed, dotted, thick'),
  typography: z.array(VocabularyEntry),
  kinds: z.array(z.string()).describe('Values of `kind`'),
  rules: z.array(z.string()),
  example: z.string().describe('A small diagram in the vocabulary'),
});
