/** Data components: metric, table, chart, diagram. */
import { type ComponentSpec, component, text } from './types.js';

const Slug = { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$' };

export const metric: ComponentSpec = {
  name: 'metric',
  description: 'One headline number with its label and change. Put 2–4 in a grid.',
  schema: component(
    'metric',
    {
      label: text('What is measured.', 80),
      value: {
        type: ['string', 'number'],
        description: 'The figure; numbers are formatted with thousands separators.',
      },
      unit: text('Unit after the value (%, ms, k€).', 12),
      delta: { type: 'number', description: 'Change against the previous period, in the same unit or %.' },
      deltaLabel: text('What the change is against ("vs Q2").', 40),
      goodWhen: {
        type: 'string',
        enum: ['up', 'down'],
        default: 'up',
        description: 'Which direction is good (colours the change).',
      },
      caption: text('A short note under the figure.', 120),
    },
    ['label', 'value'],
  ),
  example: { type: 'metric', label: 'Revenue', value: 1240, unit: 'k€', delta: 18, deltaLabel: '% vs Q2' },
};

export const table: ComponentSpec = {
  name: 'table',
  description:
    'Rows and columns; sortable by clicking a header. Numbers align right. At most 5,000 rows per page.',
  schema: component(
    'table',
    {
      columns: {
        type: 'array',
        minItems: 1,
        maxItems: 30,
        items: {
          type: 'object',
          properties: {
            key: text('The row field this column shows.', 64),
            label: text('Header text; defaults to the key.', 80),
            align: { type: 'string', enum: ['left', 'center', 'right'] },
            format: {
              type: 'string',
              enum: ['text', 'number', 'percent', 'currency', 'date'],
              default: 'text',
            },
          },
          required: ['key'],
          additionalProperties: false,
        },
      },
      rows: {
        type: 'array',
        items: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
      },
      sortable: { type: 'boolean', default: true },
      caption: text('What the table shows.', 200),
      currency: {
        type: 'string',
        pattern: '^[A-Z]{3}$',
        default: 'USD',
        description: 'ISO code for currency columns.',
      },
    },
    ['columns', 'rows'],
  ),
  example: {
    type: 'table',
    caption: 'Revenue by region',
    columns: [
      { key: 'region', label: 'Region' },
      { key: 'revenue', label: 'Revenue', format: 'currency' },
      { key: 'growth', label: 'Growth', format: 'percent' },
    ],
    rows: [
      { region: 'EU', revenue: 640000, growth: 0.21 },
      { region: 'US', revenue: 600000, growth: 0.15 },
    ],
    currency: 'EUR',
  },
};

export const chart: ComponentSpec = {
  name: 'chart',
  description:
    'A chart: a published chart of this workspace by slug, or an inline Vega-Lite spec (same rules as POST /api/v1/charts).',
  schema: {
    ...component('chart', {
      slug: { ...Slug, description: 'A chart of this workspace (its latest version).' },
      spec: { type: 'object', description: 'An inline Vega-Lite spec.' },
      caption: text('A caption under the chart.', 200),
    }),
    oneOf: [{ required: ['slug'] }, { required: ['spec'] }],
  },
  example: {
    type: 'chart',
    caption: 'Monthly revenue',
    spec: {
      data: {
        values: [
          { m: 'Jul', r: 380 },
          { m: 'Aug', r: 410 },
          { m: 'Sep', r: 450 },
        ],
      },
      mark: 'line',
      encoding: {
        x: { field: 'm', type: 'ordinal', sort: null, title: 'Month' },
        y: { field: 'r', type: 'quantitative', title: 'Revenue (k€)' },
      },
      width: 560,
      height: 220,
    },
  },
};

export const diagram: ComponentSpec = {
  name: 'diagram',
  description: 'A published diagram of this workspace by slug (its latest version), themed like the page.',
  schema: component(
    'diagram',
    { slug: { ...Slug, description: 'The diagram slug.' }, caption: text('A caption.', 200) },
    ['slug'],
  ),
  example: { type: 'diagram', slug: 'checkout-flow', caption: 'How an order moves through the system' },
};
