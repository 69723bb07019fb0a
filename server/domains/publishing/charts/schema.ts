/** Request shapes of the charts routes (the shared publication shapes are in publishing/schema.ts). */
import { z } from 'zod';
import { PublishFields, UpdateFields } from '../schema.js';

export const ChartSpec = z
  .record(z.string(), z.unknown())
  .describe(
    'A Vega-Lite spec: data inline as "values", or a CSV/JSON asset of this workspace as "url": "asset:<asset id>" (a key needs the assets service too); no other URLs',
  );

export const PublishChartBody = z.strictObject({ ...PublishFields, spec: ChartSpec });
export type PublishChartBody = z.output<typeof PublishChartBody>;
export const UpdateChartBody = z.strictObject({ ...UpdateFields, spec: ChartSpec });
export type UpdateChartBody = z.output<typeof UpdateChartBody>;

export const PreviewChartBody = z.strictObject({
  spec: ChartSpec,
  theme: z.enum(['light', 'dark']).default('light'),
  scale: z.number().min(0.25).max(4).default(2).describe('PNG pixels per SVG unit'),
});

export const ChartPreview = z.object({
  svg: z.string(),
  width: z.number(),
  height: z.number(),
  rows: z.number().int().describe('Data rows the chart read'),
  png: z.string().describe('data:image/png;base64,...'),
  pngWidth: z.number().int(),
  pngHeight: z.number().int(),
});

export const PreviewQuery = z.object({
  format: z.enum(['json', 'png']).default('json').describe('"png" answers the PNG bytes instead of JSON'),
});

export const ChartPageQuery = z.object({
  version: z.coerce.number().int().min(1).optional(),
  theme: z.enum(['light', 'dark']).default('light'),
});

export const RuntimeQuery = z.object({ v: z.string().max(64).optional() });
