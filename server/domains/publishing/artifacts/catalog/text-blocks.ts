/** Text components: heading, markdown, callout, code, timeline. */
import { type ComponentSpec, component, text } from './types.js';

const markdown = (description: string) => text(`${description} Markdown (GFM); raw HTML is ignored.`, 20_000);

export const heading: ComponentSpec = {
  name: 'heading',
  description: 'A section heading. Level 1 is the page title (use once); 2 and 3 structure sections.',
  schema: component(
    'heading',
    {
      text: text('The heading text.'),
      level: { type: 'integer', enum: [1, 2, 3], default: 2 },
      eyebrow: text('A short line above the heading (a category, a date).', 80),
    },
    ['text'],
  ),
  example: { type: 'heading', text: 'Q3 revenue review', level: 1, eyebrow: 'Finance · October 2026' },
};

export const markdownBlock: ComponentSpec = {
  name: 'markdown',
  description:
    'Rich text: paragraphs, lists, emphasis, links, inline code, tables. Rendered safely; no raw HTML, links only http(s)/mailto.',
  schema: component('markdown', { text: markdown('The text.') }, ['text']),
  example: {
    type: 'markdown',
    text: 'Revenue grew **18 %** on the quarter, led by *EU* subscriptions.\n\n- Churn fell to 2.1 %\n- Two new enterprise accounts',
  },
};

export const callout: ComponentSpec = {
  name: 'callout',
  description:
    'A highlighted note: info, success, warning or danger. Use sparingly for what the reader must not miss.',
  schema: component(
    'callout',
    {
      tone: { type: 'string', enum: ['info', 'success', 'warning', 'danger'], default: 'info' },
      title: text('A short title.', 120),
      text: markdown('The body.'),
    },
    ['text'],
  ),
  example: {
    type: 'callout',
    tone: 'warning',
    title: 'Data through 30 September',
    text: 'October figures land next week.',
  },
};

export const code: ComponentSpec = {
  name: 'code',
  description: 'A code block with syntax highlighting (language names as highlight.js knows them).',
  schema: component(
    'code',
    {
      code: { type: 'string', maxLength: 50_000, description: 'The source text.' },
      language: {
        type: 'string',
        maxLength: 40,
        description: 'e.g. ts, python, sql, json, bash; omitted: detected.',
      },
      caption: text('A caption under the block.', 200),
      lineNumbers: { type: 'boolean', default: false },
    },
    ['code'],
  ),
  example: {
    type: 'code',
    language: 'sql',
    code: "select region, sum(revenue)\nfrom orders\nwhere quarter = 'Q3'\ngroup by region;",
  },
};

export const timeline: ComponentSpec = {
  name: 'timeline',
  description: 'Dated events in order: milestones, incidents, a project plan.',
  schema: component(
    'timeline',
    {
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          properties: {
            date: text('When, as the reader should see it (2026-07-01, "Week 3").', 40),
            title: text('What happened.', 160),
            text: markdown('Details.'),
            tone: { type: 'string', enum: ['neutral', 'success', 'warning', 'danger'], default: 'neutral' },
          },
          required: ['date', 'title'],
          additionalProperties: false,
        },
      },
    },
    ['items'],
  ),
  example: {
    type: 'timeline',
    items: [
      { date: 'Jul 3', title: 'Pricing change shipped', tone: 'success' },
      {
        date: 'Aug 14',
        title: 'EU checkout outage (2 h)',
        tone: 'danger',
        text: 'Card payments failed; refunds issued.',
      },
      { date: 'Sep 30', title: 'Quarter closed' },
    ],
  },
};
