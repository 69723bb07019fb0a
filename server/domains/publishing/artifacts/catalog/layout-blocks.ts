/** Layout components: tabs, accordion, grid. Their children are components too. */
import { type ComponentSpec, childList, component, text } from './types.js';

export const tabs: ComponentSpec = {
  name: 'tabs',
  description: 'Alternative views of the same topic, one visible at a time (keyboard: arrow keys).',
  schema: component(
    'tabs',
    {
      tabs: {
        type: 'array',
        minItems: 2,
        maxItems: 8,
        items: {
          type: 'object',
          properties: { label: text('The tab label.', 40), children: childList('What the tab shows.') },
          required: ['label', 'children'],
          additionalProperties: false,
        },
      },
    },
    ['tabs'],
  ),
  example: {
    type: 'tabs',
    tabs: [
      { label: 'EU', children: [{ type: 'markdown', text: 'EU grew 21 %.' }] },
      { label: 'US', children: [{ type: 'markdown', text: 'US grew 15 %.' }] },
    ],
  },
  children: [['tabs', '*', 'children']],
};

export const accordion: ComponentSpec = {
  name: 'accordion',
  description: 'Collapsible sections for detail most readers can skip (FAQs, methodology, appendices).',
  schema: component(
    'accordion',
    {
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 30,
        items: {
          type: 'object',
          properties: {
            title: text('The section title.', 160),
            open: { type: 'boolean', default: false },
            children: childList('The section body.'),
          },
          required: ['title', 'children'],
          additionalProperties: false,
        },
      },
    },
    ['items'],
  ),
  example: {
    type: 'accordion',
    items: [
      {
        title: 'How revenue is counted',
        children: [{ type: 'markdown', text: 'Invoiced, net of refunds.' }],
      },
    ],
  },
  children: [['items', '*', 'children']],
};

export const grid: ComponentSpec = {
  name: 'grid',
  description: 'Side-by-side columns (2–4) that stack on narrow screens: metrics, a chart beside its table.',
  schema: component(
    'grid',
    {
      columns: { type: 'integer', enum: [2, 3, 4], default: 2 },
      children: childList('The cells, filled left to right.'),
    },
    ['children'],
  ),
  example: {
    type: 'grid',
    columns: 3,
    children: [
      { type: 'metric', label: 'Revenue', value: 1240, unit: 'k€' },
      { type: 'metric', label: 'Customers', value: 312 },
      { type: 'metric', label: 'Churn', value: 2.1, unit: '%', delta: -0.4, goodWhen: 'down' },
    ],
  },
  children: [['children']],
};
