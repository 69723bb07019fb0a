// A stand-in for the charts capability (being built on the publishing branch) with the same tool contract:
// charts_publish answers the item with its `spec` and page URL, charts_preview renders a spec to SVG and PNG.
// Only the MCP Apps test mounts it (ServerSeams.extraCapabilities); the real capability replaces it in main.
import sharp from 'sharp';
import { z } from 'zod';
import type { Capability } from '../../../server/capabilities/index.js';
import { defineRoute } from '../../../server/http/define-route.js';

const Spec = z.object({
  mark: z.literal('bar'),
  data: z.object({ values: z.array(z.object({ category: z.string(), value: z.number() })).min(1) }),
});

async function render(spec: z.infer<typeof Spec>) {
  const values = spec.data.values;
  const max = Math.max(...values.map((v) => v.value));
  const width = 60 * values.length + 40;
  const bars = values
    .map((v, i) => {
      const h = Math.round((v.value / max) * 200);
      return `<rect x="${30 + i * 60}" y="${220 - h}" width="40" height="${h}" fill="#3e63dd"/><text x="${50 + i * 60}" y="238" font-size="12" text-anchor="middle">${v.category}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="250" viewBox="0 0 ${width} 250"><rect width="100%" height="100%" fill="#fff"/>${bars}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return {
    svg,
    png: `data:image/png;base64,${png.toString('base64')}`,
    width,
    height: 250,
    pngWidth: width,
    pngHeight: 250,
  };
}

const Published = z.object({
  slug: z.string(),
  title: z.string(),
  visibility: z.enum(['private', 'unlisted', 'public']),
  version: z.number().int(),
  latestVersion: z.number().int(),
  spec: Spec,
  urls: z.object({ page: z.string(), svg: z.string(), png: z.string() }),
});

export const stubCharts: Capability = {
  name: 'charts',
  title: 'Charts (stub for the MCP Apps test)',
  routes: {
    publishChart: defineRoute({
      method: 'POST',
      path: '/api/v1/charts',
      auth: ['session', 'key'],
      service: 'charts',
      body: z.object({ title: z.string(), spec: Spec }),
      response: Published,
      status: 201,
      tool: 'charts_publish',
      summary: 'Publish a chart (stub)',
      handler: ({ body, origin }) => {
        const slug = `chart-${Math.random().toString(36).slice(2, 8)}`;
        const base = `${origin}/c/${slug}`;
        return {
          slug,
          title: body.title,
          visibility: 'private' as const,
          version: 1,
          latestVersion: 1,
          spec: body.spec,
          urls: { page: base, svg: `${base}.svg`, png: `${base}.png` },
        };
      },
    }),
    previewChart: defineRoute({
      method: 'POST',
      path: '/api/v1/charts/preview',
      auth: ['session', 'key'],
      service: 'charts',
      body: z.object({ spec: Spec }),
      response: z.object({
        svg: z.string(),
        png: z.string(),
        width: z.number(),
        height: z.number(),
        pngWidth: z.number(),
        pngHeight: z.number(),
      }),
      tool: 'charts_preview',
      summary: 'Render a chart without publishing (stub)',
      handler: ({ body }) => render(body.spec),
    }),
  },
};
